import type { RelayInterruptions } from "@/db/schema";

/**
 * An assistant's ConversationRelay interruption settings (issue 27), as the owner sets them on the
 * assistant (GET/PUT /api/voice-assistants/{id}: `interruptions`, `ignoreBackchannels`) and as they
 * reach Twilio in the <ConversationRelay> TwiML and the gateway.
 */
export type RelaySettings = { interruptions: RelayInterruptions; ignoreBackchannels: boolean };

export const DEFAULT_RELAY_SETTINGS: RelaySettings = { interruptions: "speech", ignoreBackchannels: true };

/**
 * The <ConversationRelay> attributes the settings decide (Twilio's TwiML reference):
 * - `interruptible` / `welcomeGreetingInterruptible` ("none" | "dtmf" | "speech" | "any"): what the
 *   caller may cut the assistant's speech with. The greeting follows the same setting.
 * - `preemptible` stays false: a reply of ours never cuts off the one playing (the gateway stops its
 *   own reply before it answers new words).
 * - `ignorebackchannel`: Twilio's own filter for "uh-huh" and "yeah" while the assistant speaks; the
 *   gateway filters the same words as well (lib/channels/phone-line/relay/gateway.ts), so a backchannel that
 *   still arrives as a prompt neither cuts the reply nor starts a turn.
 * - `reportInputDuringAgentSpeech`: with interruptions off, what the caller says while the assistant
 *   speaks still reaches the gateway (answered once the reply is done), instead of being lost.
 */
export function relayAttributes(settings: RelaySettings | null | undefined): {
  interruptible: RelayInterruptions;
  welcomeGreetingInterruptible: RelayInterruptions;
  preemptible: boolean;
  ignorebackchannel?: string;
  reportInputDuringAgentSpeech?: boolean;
} {
  const s = settings ?? DEFAULT_RELAY_SETTINGS;
  const speechInterrupts = s.interruptions === "speech" || s.interruptions === "any";
  return {
    interruptible: s.interruptions,
    welcomeGreetingInterruptible: s.interruptions,
    preemptible: false,
    ...(s.ignoreBackchannels && speechInterrupts ? { ignorebackchannel: "true" } : {}),
    ...(speechInterrupts ? {} : { reportInputDuringAgentSpeech: true }),
  };
}

/**
 * A backchannel: the caller only acknowledges what the assistant is saying ("uh-huh", "mm-hmm",
 * "okay", "yeah", "right", "I see", "ajá", "vale") — one or two such words alone, nothing else.
 * "Yeah, but what about Saturday?" or "okay, book it" are not backchannels, and neither is a plain
 * "yes" or "sí": that answers a question (a read-back's "yes" is handled by the gateway).
 */
const BACKCHANNEL_WORD =
  /^(?:u+h+[- ]?hu+h+|u+[- ]?hu+h*|m+[- ]?hm+|m+h?m+|hm+|mhm+|o+k(?:ay)?|yeah|yea|yep|yup|right|alright|all right|got it|i see|gotcha|oh|ah|aha|ah[aá]|aj[aá]|vale|ya|bueno|entiendo)$/;

export function isBackchannel(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[.,!?¡¿…"“”]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!words || words.length > 24) return false;
  // One acknowledgement, or the same one twice ("yeah yeah", "okay, okay", "sí, sí").
  if (BACKCHANNEL_WORD.test(words)) return true;
  const parts = words.split(" ");
  if (parts.length === 2 && BACKCHANNEL_WORD.test(parts[0]) && BACKCHANNEL_WORD.test(parts[1])) return true;
  return false;
}

/** What is left of `full` after the words the caller heard (Twilio's utteranceUntilInterrupt), from a word boundary. */
export function unheardRest(full: string, heard: string): string {
  const norm = (t: string) => t.replace(/\s+/g, " ");
  const text = norm(full);
  const said = norm(heard).trim();
  if (!said) return text.trim();
  const at = text.indexOf(said);
  let cut = at >= 0 ? at + said.length : Math.min(said.length, text.length);
  // Never restart mid-word: back to the start of the word the caller was hearing.
  while (cut > 0 && cut < text.length && /\S/.test(text[cut]) && /\S/.test(text[cut - 1])) cut--;
  return text.slice(cut).trim();
}
