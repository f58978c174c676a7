import "server-only";
import type { TranscriptTurn } from "@/db/schema";
import { relayTwiml } from "../twiml";
import { telephonyUrl } from "../urls";
import type { RelaySettings } from "./settings";
import { relayUrlFor } from "./urls";

/**
 * A ConversationRelay session that failed (its socket dropped: a gateway died or was redeployed)
 * is opened again instead of sending the caller to voicemail: the Connect action answers a new
 * <Connect><ConversationRelay> to the same call's URL, which the load balancer may give to any
 * gateway; that gateway reads the call's state from the database (transcript, mode, a booking under
 * way) and the conversation goes on. At most MAX_RELAY_RECONNECTS times a call, then voicemail.
 */

export const MAX_RELAY_RECONNECTS = 2;
/** The transcript tag of the line said on reconnecting (counted, and never taken for a read-back). */
export const RELAY_RECONNECT_TAG = "relay:reconnect";
export const RECONNECT_LINE = "Sorry, I lost you for a moment. Please go on.";

export function relayReconnectsOf(transcript: TranscriptTurn[]): number {
  return transcript.filter((t) => t.speaker === "assistant" && t.intent === RELAY_RECONNECT_TAG).length;
}

/** The TwiML that opens the call's relay session again; its Connect action is the next step. */
export function reconnectRelayTwiml(callId: string, step: number, relay: RelaySettings | null | undefined): string {
  return relayTwiml({ url: relayUrlFor(callId), actionUrl: telephonyUrl("connect", { step: step + 1 }), welcomeGreeting: RECONNECT_LINE, callId, relay });
}
