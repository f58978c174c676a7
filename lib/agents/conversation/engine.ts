/**
 * The conversation engine's decision for one thing a caller said: every channel (the phone's Gather
 * loop, the ConversationRelay gateway, texts, A2A, the browser voice test) asks `decide` with the
 * same situation and renders the decision in its own medium. The decision says what to DO (book,
 * take a message, transfer, escalate, opt out, forget, end…), never just what to say; the reply lines
 * of the decisions the engine makes itself live in ./replies.ts, with what each promises.
 *
 * Order of precedence (issue 27): leaving a flow always wins — a person, goodbye, "wait, what?",
 * an emergency, opt-out and forget-me beat booking offers, read-backs and message taking.
 */
import type { CallRule } from "@/db/schema";
import { isGoodbye } from "@/lib/platform/providers/llm/intents";
import type { Intent } from "@/lib/platform/providers/llm/interface";
import { asksToBeForgotten } from "@/lib/agents/conversation/understanding/forget";
import { ruleFor } from "./call-rules";
import type { CallerIntent, Understanding } from "./understanding/types";

export type EngineChannel = "call" | "relay" | "sms" | "a2a" | "voice_test";

export type Situation = {
  channel: EngineChannel;
  /** What the caller said, trimmed; "" when nothing was heard. */
  text: string;
  understanding: Understanding | null;
  /** The call is taking a message: the words are the message. */
  takingMessage: boolean;
  /** Why the message is being taken (an emergency or complaint makes the task urgent). */
  messageReason?: "emergency" | "complaint" | "person" | "callback" | "other";
  /** A booking, move or cancellation is under way (offers, a read-back). */
  bookingActive: boolean;
  /** The business's staff by name, when the channel knows them ("Jess", "Dr. Chen"). */
  people?: string[];
  forwardTo: string | null;
  rules: CallRule[];
  afterHours?: boolean;
  silentPrompts: number;
  /** Can this channel connect a call (<Dial>)? */
  canTransfer: boolean;
  /** The assistant's last line offered to take a message ("Would you like to leave a message?"). */
  offeredMessage?: boolean;
};

export type Decision =
  | { kind: "silence"; hangUp: boolean }
  | { kind: "end" }
  | { kind: "repeat" }
  | { kind: "forget" }
  | { kind: "opt_out" }
  | { kind: "robot" }
  /** The caller asked for someone by a name nobody on the staff has: said so, with who does work there. */
  | { kind: "no_such_person"; name: string; staff: string[] }
  | { kind: "voicemail" }
  | { kind: "transfer"; to: string; reason: "asked" | "emergency" | "person" | "rule"; onNoAnswer: "take_message" }
  /** Ask the caller what to pass on; their next words are the message (a task is written then). */
  | { kind: "ask_message"; reason: "emergency" | "complaint" | "person" | "callback" | "other" }
  /** The words are the message: a task is written in this turn, then the reply says so. */
  | { kind: "take_message"; urgent: boolean; reason: NonNullable<Situation["messageReason"]> }
  /** An urgent task from these very words (a complaint), written in this turn. */
  | { kind: "urgent_task"; reason: "complaint" | "emergency" }
  /** Answer: the booking dialogue or the language model; `leaveBooking` drops a booking under way first. */
  | { kind: "answer"; intent: Intent; leaveBooking: boolean };

export const MAX_SILENT_PROMPTS = 2;

/** "Wait, what?", "say that again", "what was that?": the last line again, whatever flow is under way. */
const REPEAT = /^(?:(?:sorry|wait|um+|uh+|pardon|excuse me)[,.!?]?\s*)*(?:what(?: was that| did you say)?\??|(?:can|could) you (?:say|repeat) that(?: again)?|say that again|repeat that|come again|pardon(?: me)?|i didn'?t (?:catch|hear|get) (?:that|you|it)|one more time|c[oó]mo\??|perd[oó]n\??|puede repetir(?:lo)?)[\s?.!]*(?:please)?[\s?.!]*$/i;

/** The words of "are you a robot / a real person?" (the model alone confuses "do you guys do Saturdays?"). */
const ASKS_IF_HUMAN = /\b(robot|bot|real (?:person|human)|a (?:person|human)|human|machine|computer|automated|recording|an? ai|ai|artificial|persona real|una persona|m[aá]quina|inteligencia artificial|grabaci[oó]n)\b/i;

const LEAVE_VOICEMAIL = /\b(leave (?:a |an )?(?:voice ?mail|voice message)|(?:voice ?mail)\b|buz[oó]n de voz|mensaje de voz)/i;
/** Words without which "forget me" is never read into a sentence ("And on Saturdays?" is not an erasure request). */
/** An opt-out said outright ("don't text me", "stop calling", "unsubscribe", "take me off your list"). */
const SAYS_OPT_OUT = /\b(?:(?:don'?t|do not|never)\s+(?:ever\s+)?(?:text|message|call|contact)\s+(?:me|us|this number)|stop\s+(?:texting|messaging|calling|sending|contacting)|unsubscribe|opt\s?(?:me\s+)?out|take (?:me|my number) off|remove (?:me|my number) from|dejen de (?:llamar|escribir|mandar|enviar)|no me (?:llamen|escriban|manden|env[ií]en))/i;
/** Words without which a goodbye is never read into a sentence ("And on Saturdays?" is not one). */
const FAREWELL_WORDS = /\b(bye|goodbye|thanks|thank|that'?s (?:all|it|everything)|all set|call (?:you |y'all )?back|later|have a|take care|gotta go|got to go|have to go|need to go|i'?m good|nothing else|i'?ll (?:call|check|think|try)|adi[oó]s|gracias|hasta|chao|chau|eso es todo|nada m[aá]s|luego)\b/i;
/** A request withdrawn ("never mind", "forget it", "olvídelo"), at the start of the words. */
const NEVER_MIND = /^(?:(?:hmm+|um+|uh+|oh|ok(?:ay)?|actually|well|you know what|sorry|no)[,.!\s]+)*(?:never ?mind|forget it|forget about it|no importa|olv[ií]d(?:elo|alo)|d[eé]jelo)\b/i;
/** Harm said with it still counts ("never mind the bill, there's water everywhere"). */
const PLAIN_HARM = /\b(emergency|urgent|bleeding|flood\w*|burst|gas|fire|smoke|can'?t breathe|hurt|injur\w*|emergencia|urgente|sangr\w*|inund\w*|fuga|revent\w*|incendio|humo|herid\w*|no puede respirar|no puedo respirar)\b/i;
/** A yes that opens the words ("yes please", "sure, tell them…", "sí, por favor"). */
const YES_FIRST = /^(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please|certainly|definitely|s[ií]|claro|por favor|de acuerdo|vale|bueno)\b[\s,.!]*)+/i;
/** A call back that is understanding's first reading, scored at least this, counts when the ask is in so many words. */
const CALL_ASKED_IN_WORDS = 0.45;
/** An emergency that is understanding's first reading, scored at least this, counts when harm is said in so many words. */
const EMERGENCY_WITH_HARM = 0.45;
/** Words without which an opt-out is never read into a sentence ("legal advice over the phone" is not one). */
const OPT_OUT_WORDS = /\b(stop\w*|unsubscribe|opt(?:ed)?[\s-]?out|remove|off|no more|quit|lose my number|leave me alone|(?:do not|don'?t|never|not) (?:ever )?(?:call|text|contact|message|send|bother|want)|any ?more|tired of|texts?|texting|messages?|calls|reminders?|promotions?|alerts?|list|dej(?:en|ar|e) de|no (?:me |quiero )|m[aá]s mensajes|s[aá]quen|qu[ií]ten|b[oó]rr|baja|basta|paren|lista)\b/i;
const ERASURE_WORDS = /\b(forget|delete|erase|remove|wipe|purge|scrub|get rid|data|records?|information|info|details|olvid|borr|elimin|quit|datos|informaci[oó]n)/i;
/** Questions that leave a booking flow ("what are your hours?" while times are being offered). */
const OTHER_QUESTIONS = new Set<CallerIntent>(["hours", "address", "policy", "services", "price"]);
const BOOKING_INTENTS = new Set<CallerIntent>(["book", "availability", "reschedule", "cancel_appointment"]);
/** A callback request that says what it is about ("about my dog's lab results", "sobre mi factura"). */
const CARRIES_A_SUBJECT = /\b(about|regarding|concerning|re|because|sobre|acerca de|por lo de|porque)\b\s+\S+/i;
/** How sure understanding must be before its reading overrides a booking under way. */
const LEAVE_CONFIDENCE = 0.6;
/** The caller asks in so many words to be called ("can someone call me", "give me a call", "¿me pueden llamar?"). */
const ASKS_FOR_A_CALL = /\b(call me(?: back)?|give me a (?:call|ring)|ring me|(?:have|get) (?:someone|somebody|the \w+) (?:to )?call|me (?:pueden|puede|podr[ií]an|podr[ií]a) (?:llamar|devolver la llamada)|ll[aá]m(?:e|en)me|devu[eé]lvanme la llamada|que me (?:llame|llamen|devuelva|devuelvan))/i;
/** Questions and requests a call-back request outranks: the team answers them on the call back. */
const ANSWERED_ON_A_CALL_BACK = new Set<CallerIntent>(["hours", "address", "policy", "services", "price", "other", "callback", "message", "availability"]);
/** A complaint is taken down as urgent from this score when it is the best reading (a missed complaint costs more than a needless task). */
const COMPLAINT_CONFIDENCE = 0.5;
/** A request for a person carries a complaint when the complaint reading scores at least this. */
const COMPLAINT_BESIDE = 0.25;

/** The legacy intent (the model's context and routing rules) of an understanding. */
export function legacyIntent(u: Understanding | null, fallback: Intent = "other"): Intent {
  switch (u?.intent) {
    case "book":
    case "reschedule":
    case "cancel_appointment":
    case "availability":
      return "appointment";
    case "price":
      return "pricing";
    case "hours":
      return "hours";
    case "person":
    case "callback":
    case "message":
      return "human_handoff";
    case "complaint":
      return "complaint";
    case "spam":
      return "spam";
    case "greeting":
      return "greeting";
    default:
      return fallback;
  }
}

/** The intent was among understanding's readings with at least this score. */
function heard(u: Understanding, intent: CallerIntent, score: number): boolean {
  return u.intents.some((i) => i.intent === intent && i.score >= score);
}

function sure(u: Understanding | null, ...intents: CallerIntent[]): boolean {
  return Boolean(u && intents.includes(u.intent) && u.confidence >= LEAVE_CONFIDENCE);
}

export function decide(s: Situation): Decision {
  const text = s.text.trim();
  if (!text) return { kind: "silence", hangUp: s.silentPrompts + 1 >= MAX_SILENT_PROMPTS };
  const u = s.understanding;

  if (REPEAT.test(text) || sure(u, "repeat")) return { kind: "repeat" };
  // "Actually, make it the following day, same time" names a day or time: a change, not a farewell.
  const namesWhen = Boolean(u?.when && !u.when.invalid);
  if (isGoodbye(text) || (sure(u, "goodbye") && !s.takingMessage && !namesWhen && FAREWELL_WORDS.test(text))) return { kind: "end" };
  // "Hmm, never mind, I'll call back when I know my schedule": withdrawn, and leaving — whatever the model reads into the rest.
  if (NEVER_MIND.test(text) && FAREWELL_WORDS.test(text) && !namesWhen && !s.takingMessage && !PLAIN_HARM.test(text)) return { kind: "end" };
  // Erasure cannot be undone: the model's reading counts only with words of erasure in the sentence.
  if (asksToBeForgotten(text) || (u?.intent === "forget_me" && u.confidence >= 0.8 && ERASURE_WORDS.test(text))) return { kind: "forget" };
  // "Please don't text me anymore about reservations": said in so many words, a middling score is enough.
  const optOutHeard = (u?.intents ?? []).some((i) => i.intent === "opt_out" && i.score >= 0.3);
  if ((sure(u, "opt_out") && OPT_OUT_WORDS.test(text)) || (optOutHeard && SAYS_OPT_OUT.test(text))) return { kind: "opt_out" };

  // "Oiga, me sangra mucho la muela y no para, ¿qué hago?": the question at the end lowers the score, the bleeding is said.
  if (sure(u, "emergency") || (u?.intent === "emergency" && u.confidence >= EMERGENCY_WITH_HARM && PLAIN_HARM.test(text))) {
    const rule = ruleFor(s.rules, "emergency");
    const to = rule?.action === "transfer" ? (rule.to ?? s.forwardTo) : null;
    if (to && s.canTransfer) return { kind: "transfer", to, reason: "emergency", onNoAnswer: "take_message" };
    if (s.takingMessage) return { kind: "take_message", urgent: true, reason: "emergency" };
    // Nobody to put them through to, and the caller already said what happened and who they are (or
    // texted it, with its number): the urgent task is written now, not after another question.
    if (u?.name || s.channel === "sms") return { kind: "take_message", urgent: true, reason: "emergency" };
    return { kind: "ask_message", reason: "emergency" };
  }

  // Taking a message: the caller's words are the message (unless they want a voicemail instead).
  if (s.takingMessage) {
    if (LEAVE_VOICEMAIL.test(text)) return { kind: "voicemail" };
    const reason = s.messageReason ?? "other";
    return { kind: "take_message", urgent: reason === "emergency" || reason === "complaint", reason };
  }
  if (LEAVE_VOICEMAIL.test(text)) return { kind: "voicemail" };
  // "Would you like to leave a message?" — "yes please": the message is asked for (never the offer again);
  // "yes, tell them the fence post fell…": those words are the message.
  // ("Yes — what are your hours?" or "yes, can I book a cleaning?" is that question, not a message.)
  const asksSomethingElse = Boolean(u && (OTHER_QUESTIONS.has(u.intent) || BOOKING_INTENTS.has(u.intent)) && u.confidence >= LEAVE_CONFIDENCE);
  if (s.offeredMessage && !s.bookingActive && !namesWhen && !asksSomethingElse && (YES_FIRST.test(text) || sure(u, "yes"))) {
    const rest = text.replace(YES_FIRST, "").trim();
    if (rest.split(/\s+/).filter(Boolean).length >= 4) return { kind: "take_message", urgent: false, reason: "other" };
    return { kind: "ask_message", reason: "other" };
  }
  // "Tell them the fence post fell onto my yard, this is Walt": after the offer, a message with a name is taken.
  if (s.offeredMessage && !s.bookingActive && u?.name && (u.intent === "message" || u.intent === "callback") && text.split(/\s+/).length >= 5) {
    return { kind: "take_message", urgent: false, reason: "other" };
  }
  if (sure(u, "robot") && ASKS_IF_HUMAN.test(text)) return { kind: "robot" };

  // "Do you do catering? … can someone call me, this is Beth": the question is the message, written now.
  if (u?.name && u.intent !== "person" && ANSWERED_ON_A_CALL_BACK.has(u.intent) && ASKS_FOR_A_CALL.test(text) && !s.bookingActive) {
    return { kind: "take_message", urgent: false, reason: "callback" };
  }
  // "Can somebody ring me back about setting up a cleaning? … my number is …, it's Darnell": a call back
  // about a booking, with no day or time to book — who, a number and the ask are said: written down now.
  if (u?.name && u.phone && u.intent === "book" && !u.when?.date && !u.when?.time && !s.bookingActive && ASKS_FOR_A_CALL.test(text) && heard(u, "callback", 0.3)) {
    return { kind: "take_message", urgent: false, reason: "callback" };
  }
  // "Quiero que me llame el plomero para una cotización de un calentador, me llamo Ernesto": a call asked
  // for in so many words about a service, with no day or time — a call back, not the booking questions.
  if (u?.name && u.intent === "book" && !u.when?.date && !u.when?.time && !s.bookingActive && ASKS_FOR_A_CALL.test(text)) {
    return { kind: "ask_message", reason: "callback" };
  }
  // While a booking is under way, a name or a time that only half reads as a complaint ("Racer Two") is an answer.
  if (u?.intent === "complaint" && u.confidence >= COMPLAINT_CONFIDENCE && !sure(u, "complaint") && !s.bookingActive) {
    const rule = ruleFor(s.rules, "complaint");
    if (rule?.action === "urgent_task" || rule?.action === "take_message") return { kind: "urgent_task", reason: "complaint" };
  }

  // "Is Brittany working Saturday?" where nobody is called Brittany: never her schedule, a transfer or a promise from her.
  const asked = askedForByName(text);
  // "I'd like to see Dr. Robinson for a cleaning" books the cleaning (the booking is not dropped for the name).
  // (Understanding may read "Dr. Ramirez" as the first "Dr." on the staff by its title; the name said decides.)
  const booksAService = Boolean(u?.service && (u.intent === "book" || u.intent === "availability"));
  if (asked && s.people?.length && !s.bookingActive && !booksAService && !s.people.some((p) => nameWords(p).includes(asked))) {
    return { kind: "no_such_person", name: asked[0].toUpperCase() + asked.slice(1), staff: s.people };
  }

  if (sure(u, "person") || (u?.intent === "person" && !s.bookingActive)) {
    // "There's a scratch on my car … I want to talk to the manager": a complaint, urgent, whoever they ask for.
    const complaintToo = (u?.intents ?? []).some((i) => i.intent === "complaint" && i.score >= COMPLAINT_BESIDE);
    if (complaintToo && !(s.forwardTo && s.canTransfer)) {
      const rule = ruleFor(s.rules, "complaint");
      if (rule?.action === "urgent_task" || rule?.action === "take_message") return { kind: "urgent_task", reason: "complaint" };
    }
    const rule = ruleFor(s.rules, "asks_for_person", u?.person);
    if (rule?.action === "take_message" || rule?.action === "urgent_task") return { kind: "ask_message", reason: "person" };
    const to = rule?.action === "transfer" ? (rule.to ?? s.forwardTo) : s.forwardTo;
    if (to && s.canTransfer) return { kind: "transfer", to, reason: rule ? "rule" : "asked", onNoAnswer: "take_message" };
    // "Can Jess call me back? It's Siobhan, my number is …": who, how to reach them and the ask are all
    // said — written down now for that person, not asked for again.
    if (u?.name && (u.phone || CARRIES_A_SUBJECT.test(text)) && ASKS_FOR_A_CALL.test(text)) return { kind: "take_message", urgent: false, reason: "person" };
    return { kind: "ask_message", reason: "person" };
  }
  // "Por favor, que me llame la doctora Patel al tres uno dos…": a call asked for in so many words is one, even when the number's words lower the score.
  if (sure(u, "callback", "message") || (u && (u.intent === "callback" || u.intent === "message") && u.confidence >= CALL_ASKED_IN_WORDS && ASKS_FOR_A_CALL.test(text))) {
    // "Can the doctor call me about my lab results, my number is …, it's Greg": the request already is
    // the message (who and a number, or what about): written down now, not asked for again.
    // A text comes with its number: a name is enough to write it down.
    if (u?.name && (u.phone || s.channel === "sms" || CARRIES_A_SUBJECT.test(text))) return { kind: "take_message", urgent: false, reason: "other" };
    return { kind: "ask_message", reason: "callback" };
  }
  if (sure(u, "complaint")) {
    const rule = ruleFor(s.rules, "complaint");
    if (rule?.action === "urgent_task" || rule?.action === "take_message") return { kind: "urgent_task", reason: "complaint" };
  }

  const leaveBooking = s.bookingActive && Boolean(u && OTHER_QUESTIONS.has(u.intent) && u.confidence >= LEAVE_CONFIDENCE && !u.when);
  return { kind: "answer", intent: legacyIntent(u), leaveBooking };
}

/** "Is Brittany in?", "can I talk to Dr. Ramirez": the name a caller asks for, lowercased; null for "is anyone there". */
const ASKED_FOR_BY_NAME = /\b(?:(?:is|are)\s+(?:dr\.?\s+|doctor\s+)?([a-z][a-z'-]+)\s+(?:working|in\b|there|around|available|on\s+(?:today|tomorrow|this|that|monday|tuesday|wednesday|thursday|friday|saturday|sunday))|(?:talk|speak)\s+(?:to|with)\s+(?:dr\.?\s+|doctor\s+)?([a-z][a-z'-]+)|(?:see|with)\s+(?:dr\.?|doctor)\s+([a-z][a-z'-]+)|(?:est[aá]|trabaja)\s+(?:el\s+|la\s+|(?:el\s+)?doctora?\s+)?(\p{L}[\p{L}'-]+)\s+(?:hoy|ma[nñ]ana|el\s+\p{L}+)|(?:est[aá]|se\s+encuentra|trabaja\s+ah[ií])\s+(?:el\s+|la\s+)?(?:doctora?|dra?\.?|se[nñ]ora?|licenciad[oa])\s+(\p{L}[\p{L}'-]+)\s*(?:[?¿.,!]|$))/iu;
/** Words that follow "is …" or "talk to …" but are no one's name. */
const NOT_SOMEONE = new Set(["it", "he", "she", "they", "you", "we", "this", "that", "there", "here", "anyone", "anybody", "someone", "somebody", "everyone", "everybody", "the", "a", "an", "your", "my", "our", "his", "her", "their", "someone's", "one", "any", "somebody's", "today", "tomorrow", "tonight", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "manager", "owner", "person", "human", "people", "staff", "office", "shop", "store", "front", "desk", "mechanic", "technician", "tech", "receptionist", "dentist", "doctor", "dr", "vet", "stylist", "nurse", "hygienist", "therapist", "lawyer", "attorney", "chef", "billing", "sales", "support", "service", "spanish", "english", "real", "live", "actual", "agent", "representative", "rep", "supervisor", "boss", "team", "whoever", "who", "what", "still", "open", "closed", "available", "free", "booked", "busy", "now", "also", "just", "really", "all", "not", "no", "yes", "usted", "alguien", "nadie", "el", "la"]);

function askedForByName(text: string): string | null {
  const m = ASKED_FOR_BY_NAME.exec(text);
  const name = (m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? m?.[5])?.toLowerCase();
  return name && name.length >= 3 && !NOT_SOMEONE.has(name) ? name : null;
}

function nameWords(person: string): string[] {
  return person.toLowerCase().split(/[^\p{L}'-]+/u).filter(Boolean);
}

/** Words that move a booking ("move", "reschedule", "change it", "cambiar"). */
const MOVE_WORDS = /\b(reschedul\w*|re-schedul\w*|move|moving|push|bump|shift|change|changing|switch|instead|cambiar|cambio|mover|pasar)\b/i;

function withoutWords(text: string, words: string): string {
  const drop = new Set(words.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  return text
    .split(/\s+/)
    .filter((word) => !drop.has(word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")))
    .join(" ");
}

/** What the booking dialogue should know of understanding's reading: a booking, move or cancellation, and the caller's name. */
export function bookingHeard(
  u: Understanding | null,
): { intent: "book" | "reschedule" | "cancel" | null; name?: string | null; language?: "en" | "es"; service?: string | null; question?: boolean } | undefined {
  if (!u) return undefined;
  // A service and a day named together ("a cleaning Saturday at 10") is a booking, whatever else was asked.
  const named = u.service && u.when && !u.when.invalid ? "book" : null;
  let intent: "book" | "reschedule" | "cancel" | null = u.intent === "book" || u.intent === "availability" ? "book" : u.intent === "reschedule" ? "reschedule" : u.intent === "cancel_appointment" ? "cancel" : named;
  // "Oil change fri 10am?": the service's own word ("change") is no move — a booking, when nothing else says move.
  if (intent === "reschedule" && named && u.when?.text && !MOVE_WORDS.test(withoutWords(u.when.text, u.service!.name))) intent = "book";
  // "What happens if I'm running late to my appointment?": a question about the business that names an
  // appointment, not a booking (no day or time said).
  const question = OTHER_QUESTIONS.has(u.intent) && u.confidence >= LEAVE_CONFIDENCE && !u.when?.date && !u.when?.time;
  return { intent, name: u.name ?? null, language: u.language, service: u.service?.name ?? null, ...(question ? { question } : {}) };
}
