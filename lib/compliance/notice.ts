import { isAllPartyState, requiresAiDisclosure } from "./states";

/**
 * The disclosure and recording notice a caller hears before anything is recorded or transcribed
 * (docs/compliance.md#the-notice). Pure: the call's parties' states and the organization's setting in,
 * the notice out.
 */

export const DEFAULT_NOTICE = "This call is answered by an AI assistant and may be recorded and transcribed";
export const DEFAULT_TEXT_NOTICE = "Texts to this number are answered by an AI assistant and kept as a record";
/** The same default for a texter who writes in Spanish (the reply after it is in Spanish too). */
export const DEFAULT_TEXT_NOTICE_ES = "Los mensajes a este número los responde un asistente de IA y se guardan como registro";
/** Added in the strict form (either party in an all-party-consent state) unless the owner's words already ask for consent. */
export const CONSENT_SENTENCE = "By staying on the line, you consent to this.";

export type NoticeSettings = { noticeEnabled: boolean; noticeText: string | null };

export type NoticeInput = {
  callerState: string | null;
  businessState: string | null;
  settings: NoticeSettings;
  channel?: "call" | "text";
  /** The texter's language: the default text notice is given in it (an owner's own wording as written). */
  language?: "en" | "es";
};

export type Notice = {
  /** What is said (or texted); null when no notice is given. */
  text: string | null;
  /** The law of a party's state requires it: the owner's switch cannot turn it off. */
  required: boolean;
  /** Either party is in an all-party-consent state: the notice asks for consent in so many words. */
  strict: boolean;
  /** Why it is required, for the consent record ("CA: all-party consent"). */
  reasons: string[];
};

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** The notice for a call or a text conversation. */
export function noticeFor(input: NoticeInput): Notice {
  const reasons: string[] = [];
  const parties = [...new Set([input.callerState, input.businessState].filter((s): s is string => Boolean(s)))];
  for (const state of parties) {
    if (isAllPartyState(state)) reasons.push(`${state}: all-party consent to record`);
    if (requiresAiDisclosure(state)) reasons.push(`${state}: AI disclosure at the start`);
  }
  const strict = parties.some(isAllPartyState);
  const required = reasons.length > 0;
  if (!required && !input.settings.noticeEnabled) return { text: null, required, strict, reasons };
  const own = input.settings.noticeText?.trim();
  const base = sentence(own || (input.channel === "text" ? (input.language === "es" ? DEFAULT_TEXT_NOTICE_ES : DEFAULT_TEXT_NOTICE) : DEFAULT_NOTICE));
  const asksConsent = /\bconsent|agree/i.test(base);
  const text = strict && input.channel !== "text" && !asksConsent ? `${base} ${CONSENT_SENTENCE}` : base;
  return { text, required, strict, reasons };
}

/** What an owner's own wording must still say (validated when saved): that it is an AI, and that it is recorded. */
export function noticeTextProblem(text: string): string | null {
  if (!/\b(AI|artificial intelligence|automated|virtual assistant)\b/i.test(text)) return "The notice must say the caller is speaking with an AI assistant";
  if (!/\brecord/i.test(text)) return "The notice must say the call may be recorded";
  return null;
}
