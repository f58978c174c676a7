import type { ChatMessage, Intent } from "./interface";

/**
 * Keyword/regex intent scoring, used by the local responder and as the Anthropic adapter's fallback
 * when the model leaves out its intent tag. Each rule adds its weight when it matches; the highest
 * total wins, ties go to the earlier intent in PRIORITY (a caller who says "hello, I'd like to book"
 * wants an appointment, not a greeting). Nothing scores → "other".
 */
type Rule = { intent: Intent; pattern: RegExp; weight: number };

/** The caller wants to order or buy something now (not ask about an existing order). */
export const NEW_ORDER =
  /\b(?:(?:i'?d|i would|we'?d|we would) like to|(?:i|we) (?:want|wanna|need) to|(?:can|could|may) (?:i|we)|i'?m (?:looking|hoping) to|like to|want to)\s+(?:place an order|pre-?order|order|buy|purchase)\b|\bplace an order\b|\bpre-?order\b/i;

const rules: Rule[] = [
  // Spam: prizes, warranties, robocall scripts.
  { intent: "spam", pattern: /\b(you('ve| have)? (just )?won|winner|prize|free (cruise|vacation|holiday|gift)|extended (car |auto )?warranty|press (1|one)\b|crypto|bitcoin|lottery|act now|limited[- ]time offer|claim your|social security number|gift cards?|seo services|rank (you|your business) (first|#1|higher)|google (listing|ranking))/i, weight: 4 },
  // A person, please.
  { intent: "human_handoff", pattern: /\b(speak|talk|connect|transfer|put me through|get me)\b.{0,30}\b(person|human|someone|somebody|agent|representative|rep|manager|staff|receptionist|operator|doctor|owner)\b/i, weight: 4 },
  { intent: "human_handoff", pattern: /\b(real person|human being|live agent|representative|operator|call me back|callback)\b/i, weight: 2 },
  // Complaints.
  { intent: "complaint", pattern: /\b(problem|issue|complain\w*|unhappy|not happy|disappointed|terrible|awful|horrible|worst|rude|unacceptable|broken|overcharged|charged twice|double charged|angry|upset|frustrat\w*|mistake|wrong)\b/i, weight: 3 },
  { intent: "complaint", pattern: /\b(refund|my bill|the bill|billing)\b/i, weight: 1 },
  // Prices.
  { intent: "pricing", pattern: /\b(how much|price|prices|pricing|cost|costs|fee|fees|rates?|quote|estimate|expensive|cheap|afford\w*|discount|insurance|payment plan)\b/i, weight: 3 },
  { intent: "pricing", pattern: /[$€£]/, weight: 1 },
  // Appointments and bookings.
  { intent: "appointment", pattern: /\b(book|booking|appointment|appt|schedule|reschedul\w*|reserve|reservation|table for|slot|availability|come in|see the (doctor|dentist))\b/i, weight: 3 },
  { intent: "appointment", pattern: /\b(cancel)\b.{0,20}\b(appointment|booking|reservation)\b/i, weight: 2 },
  // Orders and logistics.
  { intent: "order", pattern: /\b(my order|an order|place an order|order (status|number)|deliver\w*|shipping|shipped|shipment|track\w*|package|parcel|pick ?up|take ?out|takeaway|curbside|return (an|my|the) (item|order)|exchange)\b/i, weight: 3 },
  // A new order: "I'd like to order a birthday cake", "can I order…", "I want to buy…".
  { intent: "order", pattern: NEW_ORDER, weight: 4 },
  // Opening hours. A weekday alone ("a cake for Saturday") is only a hint.
  { intent: "hours", pattern: /\b(open|opening|close|closing|closed|hours|what time|when are you)\b/i, weight: 3 },
  { intent: "hours", pattern: /\b(weekends?|saturdays?|sundays?|holidays?)\b/i, weight: 1 },
  // Greetings: only win when nothing else is asked.
  { intent: "greeting", pattern: /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening)|howdy|greetings)\b/i, weight: 1 },
  { intent: "greeting", pattern: /\bhow are you\b/i, weight: 1 },
];

const PRIORITY: Intent[] = ["spam", "human_handoff", "complaint", "appointment", "pricing", "order", "hours", "greeting", "other"];

/** A day or time the caller mentioned ("Tuesday at 3pm", "tomorrow morning"), as said. */
export function mentionedWhen(text: string): string | null {
  const day = /\b(today|tonight|tomorrow|(next |this )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)|weekend)\b/i.exec(text);
  const time =
    /\b((at )?\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.|o'clock)|(at )?noon|in the (morning|afternoon|evening)|morning|afternoon|evening)\b/i.exec(text);
  if (!day && !time) return null;
  const parts = [day?.[0], time?.[0]].filter(Boolean).map((s) => s!.trim());
  return parts.join(" ").replace(/\s+/g, " ");
}

export type Classification = { intent: Intent; scores: Partial<Record<Intent, number>> };

export function classifyIntent(text: string, history: ChatMessage[] = []): Classification {
  const scores: Partial<Record<Intent, number>> = {};
  for (const rule of rules) {
    if (rule.pattern.test(text)) scores[rule.intent] = (scores[rule.intent] ?? 0) + rule.weight;
  }
  let best: Intent = "other";
  let bestScore = 0;
  for (const intent of PRIORITY) {
    const score = scores[intent] ?? 0;
    if (score > bestScore) {
      best = intent;
      bestScore = score;
    }
  }
  // Context: answering the assistant's "what day and time?" with just a time keeps the booking going
  // (also "Saturday morning?", which alone only hints at hours).
  if (best === "other" || best === "greeting" || (best === "hours" && bestScore < 3)) {
    const lastAssistant = [...history].reverse().find((m) => m.role === "assistant");
    if (lastAssistant?.intent === "appointment" && mentionedWhen(text)) best = "appointment";
  }
  return { intent: best, scores };
}

const GOODBYE = /\b(good ?bye|bye(?: bye)?|that'?s all|that is all|that'?s it|that'?s everything|nothing else|no,? thanks?|no,? thank you|have a (?:good|nice|great|lovely) (?:day|one|evening|night|weekend)|talk to you later|see you)\b/i;
const ENDS_WITH_BYE = /\b(good ?bye|bye)[\s.!]*$/i;

/**
 * Whether the caller is ending the conversation: "No, that's all, thanks" and "bye" are; "that's all
 * I need to know: when do you open?" is not (it still asks something).
 */
export function isGoodbye(text: string, intent: Intent = classifyIntent(text).intent): boolean {
  if (!GOODBYE.test(text)) return false;
  if (ENDS_WITH_BYE.test(text)) return true;
  return !text.includes("?") && (intent === "other" || intent === "greeting");
}
