/**
 * The engine's own lines, in English and Spanish, each with what it promises. A line that promises
 * something (a call back, a booking, a transfer) may only be said in a turn that has already written
 * what backs it (a task row, an appointment row, a <Dial>): `say()` refuses otherwise, and
 * replies.test.ts proves it for every template here and for every promise phrase the engine can meet.
 */
import type { Language } from "./understanding/types";

/** What a reply can promise, and the row (or act) of the same turn that backs it. */
export type Promise_ = "task" | "appointment" | "transfer";

export type ReplyVars = {
  business: string;
  name?: string | null;
  /** The caller's number read back digit by digit ("5 5 5, 0 1 2, 3 4 5 6"). */
  digits?: string | null;
  message?: string;
  /** The staff by name, listed ("Jess and Marco"). */
  staff?: string;
};

type Template = { promises: Promise_ | null; en: (v: ReplyVars) => string; es: (v: ReplyVars) => string };

const whom = (v: ReplyVars) => (v.name ? `, ${v.name}` : "");

export const REPLIES = {
  /** Asking what to pass on: promises nothing yet (the task comes with the answer). */
  askMessage: {
    promises: null,
    en: (v) => `I can take a message for the team at ${v.business}. What would you like me to pass on, and what name should I give them?`,
    es: (v) => `Puedo tomar un mensaje para el equipo de ${v.business}. ¿Qué quiere que les diga, y a nombre de quién?`,
  },
  askCallback: {
    promises: null,
    en: (v) => `Would you like a call back from the team at ${v.business}? Tell me what it's about and the name they should ask for, and I'll write it down for them.`,
    es: (v) => `Puedo pedir que alguien de ${v.business} le devuelva la llamada. ¿Qué les digo, y por quién deben preguntar?`,
  },
  askEmergency: {
    promises: null,
    en: (v) => `I'm sorry, that sounds urgent. Nobody at ${v.business} can pick up this second, so I'll write it down as urgent for the team. Please tell me what happened, your name and the best number to reach you.`,
    es: (v) => `Lo siento, suena urgente. Nadie en ${v.business} puede atender en este momento, así que lo anotaré como urgente para el equipo. Dígame qué pasó, su nombre y el mejor número para llamarle.`,
  },
  /** The message is written as a task in this very turn. */
  messageTaken: {
    promises: "task",
    en: (v) => `Thank you${whom(v)}. I've written your message down for the team at ${v.business}, and they'll call you back${v.digits ? ` at ${v.digits}` : ""}. Is there anything else I can help you with?`,
    es: (v) => `Gracias${whom(v)}. He anotado su mensaje para el equipo de ${v.business} y le devolverán la llamada${v.digits ? ` al ${v.digits}` : ""}. ¿Puedo ayudarle con algo más?`,
  },
  urgentTaken: {
    promises: "task",
    en: (v) => `Thank you${whom(v)}. I've marked this urgent for the team at ${v.business}, and they'll call you back${v.digits ? ` at ${v.digits}` : ""} as soon as they can. If anyone is in danger, please hang up and call 911.`,
    es: (v) => `Gracias${whom(v)}. Lo he marcado como urgente para el equipo de ${v.business} y le llamarán${v.digits ? ` al ${v.digits}` : ""} lo antes posible. Si alguien corre peligro, cuelgue y llame al 911.`,
  },
  complaintTaken: {
    promises: "task",
    en: (v) => `I'm sorry about that${whom(v)}. I've written it down as urgent for the team at ${v.business}, and someone will call you back${v.digits ? ` at ${v.digits}` : ""}. Is there anything you'd like me to add?`,
    es: (v) => `Lamento lo ocurrido${whom(v)}. Lo he anotado como urgente para el equipo de ${v.business} y alguien le devolverá la llamada${v.digits ? ` al ${v.digits}` : ""}. ¿Quiere añadir algo más?`,
  },
  connecting: {
    promises: "transfer",
    en: (v) => `Of course. Let me connect you with someone at ${v.business}. One moment, please.`,
    es: (v) => `Por supuesto. Le comunico con alguien de ${v.business}. Un momento, por favor.`,
  },
  connectingEmergency: {
    promises: "transfer",
    en: (v) => `That sounds urgent. I'm connecting you to ${v.business} right now. One moment, please.`,
    es: (v) => `Eso suena urgente. Le comunico con ${v.business} ahora mismo. Un momento, por favor.`,
  },
  goodbye: {
    promises: null,
    en: (v) => `Thanks for calling ${v.business}. Have a great day. Goodbye!`,
    es: (v) => `Gracias por llamar a ${v.business}. Que tenga un buen día. ¡Adiós!`,
  },
  robot: {
    promises: null,
    en: (v) => `I'm ${v.name ?? "the assistant"}, an AI assistant for ${v.business}, not a person. I can answer questions, book appointments or take a message for the team. How can I help?`,
    es: (v) => `Soy ${v.name ?? "el asistente"}, un asistente de inteligencia artificial de ${v.business}, no una persona. Puedo responder preguntas, reservar citas o tomar un mensaje para el equipo. ¿En qué le ayudo?`,
  },
  noSuchPerson: {
    promises: null,
    en: (v) => `I don't see anyone named ${v.name} at ${v.business}. Our team is ${v.staff}. Would you like to book with one of them, or leave a message?`,
    es: (v) => `No veo a nadie llamado ${v.name} en ${v.business}. Nuestro equipo es ${v.staff}. ¿Quiere reservar con alguno de ellos o dejar un mensaje?`,
  },
  nothingToRepeat: {
    promises: null,
    en: () => "Sorry about that. How can I help you?",
    es: () => "Disculpe. ¿En qué puedo ayudarle?",
  },
  /** A model's claim that nothing in its turn backs (no task, booking or transfer written): an offer instead. */
  offerMessage: {
    promises: null,
    en: () => "I can't do that from here myself, but I can take your name, your number and a message for the team. Would you like that?",
    es: () => "No puedo hacerlo yo desde aquí, pero puedo tomar su nombre, su número y un mensaje para el equipo. ¿Le parece bien?",
  },
  optedOut: {
    promises: null,
    en: (v) => `Understood. I've taken your number off ${v.business}'s list: no more texts or calls from us. Is there anything else?`,
    es: (v) => `Entendido. He quitado su número de la lista de ${v.business}: no recibirá más mensajes ni llamadas nuestras. ¿Algo más?`,
  },
} satisfies Record<string, Template>;

export type ReplyKey = keyof typeof REPLIES;

/** What this turn has done that a promise can stand on. */
export type TurnEffects = { task?: boolean; appointment?: boolean; transfer?: boolean };

export class UnbackedPromiseError extends Error {
  constructor(key: string, promise: Promise_) {
    super(`The reply "${key}" promises a ${promise} that this turn has not made`);
    this.name = "UnbackedPromiseError";
  }
}

/** The line in the caller's language; refuses a promise the turn has not backed. */
export function say(key: ReplyKey, lang: Language, vars: ReplyVars, effects: TurnEffects): string {
  const template: Template = REPLIES[key];
  if (template.promises && !effects[template.promises]) throw new UnbackedPromiseError(key, template.promises);
  return template[lang](vars);
}

/** Phrases that promise something, whatever produced the reply (a template, the local responder, a model). */
const PROMISE_PHRASES: { promise: Promise_; pattern: RegExp }[] = [
  { promise: "task", pattern: /\b((?:I'?ve|I have) (?:noted|written down|taken down|passed on|passed along|left) (?:it|this|your message|a message|your request)\b|will pass (?:it|this|that) (?:on|along|to)|call(?:s|ing)? you back|get back to you|follow(?:s|ing)? up with you|be in touch|(?:someone|they|the team|we)(?:'ll| will) (?:follow up|confirm|check|review|contact you|let you know)|(?:I'll|I will) (?:have|let) (?:someone|the team)|(?:I'll|I will) pass (?:it|this|that|your \w+) (?:on|to)|reach out to you|te (?:llamar|devolver)|le (?:llamar|devolver)[áa]n?|le llamar[áa]n|devolver[áa]n? la llamada)/i },
  { promise: "appointment", pattern: /\b((?:I'?ve|I have) (?:booked|scheduled|confirmed|moved|rescheduled|cancell?ed) (?:you|it|your|that|the)|(?:has|have) been (?:moved|rescheduled|cancell?ed)|it'?s (?:booked|cancell?ed)\b|you'?re (?:all )?booked|you are booked|is booked for you|(?<!nothing )has been booked|queda reservad|est[áa] reservad|su cita (?:est[áa]|queda) confirmada)/i },
  { promise: "transfer", pattern: /\b(connecting you\b|(?:I'll|I will|let me) (?:transfer|connect) you|connect(?:ing)? you (?:with|to)|put(?:ting)? you through|transferring you|le comunico|le paso con)/i },
];

/** What the words promise. */
export function promisesIn(text: string): Set<Promise_> {
  const found = new Set<Promise_>();
  for (const { promise, pattern } of PROMISE_PHRASES) if (pattern.test(text)) found.add(promise);
  return found;
}

/** The promises the words make that the turn has not backed. */
export function unbackedPromises(text: string, effects: TurnEffects): Promise_[] {
  return [...promisesIn(text)].filter((p) => !effects[p]);
}

/** "+15555550123" → "5 5 5, 5 5 5, 0 1 2 3" (said digit by digit, grouped as written). */
export function digitsAloud(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  const groups = national.length === 10 ? [national.slice(0, 3), national.slice(3, 6), national.slice(6)] : [national];
  return groups.map((g) => g.split("").join(" ")).join(", ");
}
