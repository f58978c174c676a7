/**
 * Sentences callers, owners and e-mail readers see from the receptionist's follow-up: the text-back,
 * owner notifications, task titles, the forget-me confirmations and the daily recap.
 */

/** The text-back template every number starts with; {business}, {number} and {name} are filled in. */
export const DEFAULT_TEXT_BACK_TEMPLATE =
  "Thanks for calling {business}. We got your call and the team will follow up soon. You can also reply to this text. Reply STOP to opt out.";

export const TEXT_BACK_PLACEHOLDERS = ["{business}", "{number}", "{name}"] as const;

export function fillTemplate(template: string, values: { business: string; number: string; name: string | null }): string {
  return template
    .replaceAll("{business}", values.business)
    .replaceAll("{number}", values.number)
    .replaceAll("{name}", values.name ?? "there")
    .replace(/\s+/g, " ")
    .trim();
}

export function who(name: string | null | undefined, phone: string): string {
  return name ? `${name} (${phone})` : phone;
}

function clip(text: string, max = 90): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

export const TASK_TITLES = {
  voicemail: (caller: string, transcript: string | null) =>
    transcript ? `Call back ${caller} about their voicemail: "${clip(transcript, 120)}"` : `Call back ${caller}: they left a voicemail`,
  message: (caller: string, message: string) => `Call back ${caller} about: "${clip(message, 120)}"`,
  callback: (caller: string) => `Call back ${caller}: they asked for a call back`,
  missed: (caller: string) => `Call back ${caller}: missed call`,
  text: (caller: string, body: string) => `Answer ${caller} about their text: "${clip(body, 70)}"`,
};

export const OWNER_NOTICES = {
  missed: (caller: string) => `Missed call from ${caller}`,
  voicemail: (caller: string) => `New voicemail from ${caller}`,
  message: (caller: string) => `${caller} left a message with the assistant`,
  handled: (caller: string) => `The assistant answered a call from ${caller}`,
  textBackSent: (to: string) => `A text-back went to ${to}.`,
  textBackOptedOut: (to: string) => `No text-back: ${to} has opted out of texts.`,
  recap: (business: string, date: string) => `Daily recap for ${business}, ${date}`,
};

export const FORGET_ME = {
  spoken: "Done. I've erased what we remembered about you, and we won't keep any of it from now on. Is there anything else I can help with?",
  text: (business: string) => `Done: ${business} has erased what it remembered about you and won't keep it from now on.`,
};

export function welcomeBack(name: string, topic: string | null): string {
  return topic ? `Welcome back, ${name}. Is this about ${topic}? If not, how can I help you today?` : `Welcome back, ${name}. How can I help you today?`;
}

export const RECAP_LABELS = {
  answered: "Calls answered",
  missed: "Missed calls",
  spamBlocked: "Spam blocked",
  newTasks: "New tasks",
  knowledgeGaps: "Knowledge gaps",
  bookings: "Bookings",
};
