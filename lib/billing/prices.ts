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
