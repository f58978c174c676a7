/**
 * The sentences people read about why a call went where it went, its spam signals, and the cap.
 * Pure: the call loop, the API and the screens use the same words.
 */

export const ROUTED = {
  blockList: "Blocked: the caller is on your block list",
  blockedRule: (n: number) => `Blocked by routing rule ${n}`,
  spamBlocked: (score: number, threshold: number) => `Spam score ${score} is at or above your threshold of ${threshold}: blocked`,
  spamVoicemail: (score: number, threshold: number) => `Spam score ${score} is at or above your threshold of ${threshold}: sent to voicemail`,
  capVoicemail: (cap: number) => `The monthly cap of ${cap} credits is reached: voicemail only`,
  capBilling: (cap: number) => `The monthly cap of ${cap} credits is reached: answered and billed, as set`,
  capMidCall: (cap: number) => `The monthly cap of ${cap} credits was reached during the call: the assistant took a message instead`,
  vip: (n: number, action: string) => `VIP caller (rule ${n}): ${action}`,
  afterHours: (n: number, when: string, action: string) => `After hours (${when}), rule ${n}: ${action}`,
  holiday: (n: number, name: string, action: string) => `Holiday (${name}), rule ${n}: ${action}`,
  always: (n: number, action: string) => `Rule ${n}: ${action}`,
  intent: (n: number, intent: string, action: string) => `The caller asked about ${intent} (rule ${n}): ${action}`,
  ringFirst: (to: string, seconds: number) => `Ring first: rang ${to} for ${seconds} s before the assistant`,
  ringFirstUnanswered: (to: string) => `Ring first: ${to} did not answer, so the assistant took the call`,
  assistantFirst: "Assistant first: no rule matched",
  noAssistant: "No active assistant: voicemail",
};

export function actionWords(action: string, to?: string | null): string {
  switch (action) {
    case "forward":
      return `forwarded to ${to ?? "the team"}`;
    case "voicemail":
      return "voicemail";
    case "reject":
      return "rejected";
    default:
      return "the assistant";
  }
}

export const SPAM = {
  attestationA: "The carrier fully verified the caller's number (attestation A)",
  attestationB: "The carrier verified the caller but not the number (attestation B)",
  attestationC: "The carrier could not verify where the call came from (attestation C)",
  attestationFailed: "The carrier's verification of the caller's number failed",
  noAttestation: "The call came with no carrier verification",
  allowList: "The caller is on your allow list",
  blockList: "The caller is on your block list",
  shortCalls: (n: number) => `${n} short calls from this number in the last hour`,
  neighbours: (n: number) => `${n} calls from neighbouring numbers in the last 10 minutes`,
  reported: (n: number) => `Reported as spam by ${n} other business${n === 1 ? "" : "es"}`,
  silent: "The caller never spoke",
  recorded: "The caller sounded like a recorded sales message",
  pitchText: "The text read like a sales pitch",
  textBurst: (n: number) => `${n} other texts from this number in the last 10 minutes`,
  neighbourTexts: (n: number) => `${n} texts from neighbouring numbers in the last 10 minutes`,
  link: "The text contains a link",
  shortLink: "The text contains a shortened link, which hides where it leads",
  markedNotSpam: "Marked not spam by your team",
};

export const CAP = {
  alertTitle: "Credit Usage Alert",
  alert: (percent: number, used: number, cap: number) =>
    `You've used ${percent}% of this month's cap (${used} of ${cap} credits). At the cap, calls follow your setting: voicemail only, or keep answering and bill.`,
};

/** The sentence the person who answers a transfer hears before the caller is connected. */
export function whisperLine(input: { caller: string; callerName: string | null; business: string; why: string }): string {
  const who = input.callerName ? `${input.callerName} at ${input.caller}` : input.caller;
  return `Call for ${input.business} from ${who}: ${input.why}.`;
}
