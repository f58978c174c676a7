import type { CallMode } from "@/db/schema";
import { classifyIntent, isGoodbye } from "@/lib/platform/providers/llm/intents";
import type { ChatMessage, Intent } from "@/lib/platform/providers/llm/interface";
import { asksToBeForgotten } from "@/lib/agents/conversation/understanding/forget";

/**
 * What the assistant does with one thing the caller said (or did not say). The call loop asks this
 * one function, so routing rules, spam screening or business hours plug in here later without
 * touching the webhooks (lib/channels/phone-line/voice/ (one file per webhook step)).
 */
export type TurnSituation = {
  /** What the caller said, trimmed; "" when the Gather heard nothing. */
  text: string;
  mode: CallMode;
  /** The number's forward-to number, if it has one. */
  forwardTo: string | null;
  /** Nothing heard this many times in a row before this turn. */
  silentPrompts: number;
  history: ChatMessage[];
};

export type TurnDecision =
  /** Nothing heard: ask again, or say goodbye after the second silence. */
  | { kind: "silence"; hangUp: boolean }
  | { kind: "goodbye" }
  /** The caller asked the business to forget them (caller memory is erased for good). */
  | { kind: "forget_me" }
  /** The caller asked to leave a voicemail. */
  | { kind: "voicemail" }
  | { kind: "transfer"; to: string }
  /** The caller is dictating a message for the team (after a transfer nobody answered, or a request for a person). */
  | { kind: "take_message" }
  /** The assistant answers (language model + speech); `intent` is the local classification used to route. */
  | { kind: "reply"; intent: Intent };

/** Two silent Gathers in a row end the call. */
export const MAX_SILENT_PROMPTS = 2;

const LEAVE_VOICEMAIL = /\bleave (?:a |an )?(?:voice ?mail|voice message)\b/i;
const VOICEMAIL = /\b(leave (?:a |an )?(?:voice ?mail|voice message)|(?:voice ?mail)\b)/i;

export { isGoodbye };

export function decideTurn(situation: TurnSituation): TurnDecision {
  const text = situation.text.trim();
  if (!text) return { kind: "silence", hangUp: situation.silentPrompts + 1 >= MAX_SILENT_PROMPTS };
  const { intent } = classifyIntent(text, situation.history);
  if (isGoodbye(text, intent)) return { kind: "goodbye" };
  // Taking a message: the caller's words are the message, unless they ask to leave a voicemail instead.
  if (situation.mode === "message" && !LEAVE_VOICEMAIL.test(text)) return { kind: "take_message" };
  if (asksToBeForgotten(text)) return { kind: "forget_me" };
  if (VOICEMAIL.test(text)) return { kind: "voicemail" };
  if (intent === "human_handoff" && situation.forwardTo) return { kind: "transfer", to: situation.forwardTo };
  return { kind: "reply", intent };
}
