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
  urgent: (caller: string) => `Urgent: ${caller} needs help now`,
  text: (caller: string) => `New text from ${caller}`,
};

/** Words that make a caller's task urgent (an owner is alerted at once, Settings → Notifications → Urgent tasks). */
export const URGENT_WORDS = /\b(emergenc\w*|urgent\w*|asap|right away|severe|bleeding|swollen|unbearable|flood\w*|burst|leak\w*|gas smell|smell of gas|no heat)\b/i;

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

/** Answering the daily recap by e-mail ("done 2"). */
export const RECAP_REPLY = {
  howTo: (reference: string) => `Reply to this e-mail with "done 2" (or "done 1, 3") to mark those new tasks done. Reference: ${reference}`,
  subject: (business: string, date: string) => `Re: Daily recap for ${business}, ${date}`,
  answer: (done: { number: number; title: string }[], unknown: number[]) =>
    [
      done.length ? `Marked done:\n${done.map((d) => `${d.number}. ${d.title}`).join("\n")}` : "Nothing was marked done.",
      unknown.length ? `Not in that recap's new tasks: ${unknown.join(", ")}.` : null,
      done.length || unknown.length ? null : 'Write "done" and the task numbers from the recap, e.g. "done 2" or "done 1, 3".',
    ]
      .filter(Boolean)
      .join("\n\n"),
};
