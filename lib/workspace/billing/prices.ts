/**
 * What each metered action costs, in credits. The one price table: everything that spends credits
 * reads it from here, and docs/api.md#credits repeats it for users.
 */
export const creditPrices = {
  /** One voice-test or chat turn: a language-model reply plus its synthesized audio. */
  voiceTestTurn: 1,
  /** One assistant turn on a live phone call. */
  callTurn: 1,
  /** One text message answered by the assistant. */
  smsReply: 1,
  /** One question from another AI agent (A2A) answered by the assistant. */
  agentReply: 1,
  /** One started minute of transcription (recordings, voicemail). */
  transcriptionMinute: 1,
} as const;

export type MeteredAction = keyof typeof creditPrices;

/** What spent the credits, as the master admin's credit usage split shows it (docs/analytics.md). */
export const creditCategories = ["voice_processing", "sms", "call_routing", "ai_analysis"] as const;
export type CreditCategory = (typeof creditCategories)[number];

/** Each metered action's category: written on its ledger row by spendCredits. */
export const categoryOf: Record<MeteredAction, CreditCategory> = {
  voiceTestTurn: "voice_processing",
  callTurn: "voice_processing",
  smsReply: "sms",
  agentReply: "call_routing",
  transcriptionMinute: "ai_analysis",
};

/**
 * The assistant turns a typical answered call takes (a greeting, 3–5 exchanges, a goodbye), measured
 * on the seeded demo calls and the booking walkthrough; each turn is `creditPrices.callTurn`.
 */
export const typicalCallTurns = { min: 4, max: 6 } as const;

/** What a credit buys, in the words Signup and Billing show (issue 30). */
export function creditMeaning(): string {
  const reply = creditPrices.callTurn === 1 && creditPrices.smsReply === 1 ? "1 credit = one assistant reply or one text" : `one assistant reply = ${creditPrices.callTurn} credits, one text = ${creditPrices.smsReply}`;
  return `${reply}; a typical call uses ${typicalCallTurns.min * creditPrices.callTurn}–${typicalCallTurns.max * creditPrices.callTurn}.`;
}

/** How each usage category reads to an owner (Billing's usage split). */
export const categoryLabels: Record<CreditCategory, string> = {
  voice_processing: "Calls and voice tests",
  sms: "Texts",
  call_routing: "Other AI agents",
  ai_analysis: "Voicemail transcription",
};
