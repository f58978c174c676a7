import { splitSentences } from "@/lib/platform/text/sentences";
import type { AssistantPersona, BusinessInfo, ChatMessage, Intent, LlmProvider, Reply, ReplyEvent, ReplyInput } from "./interface";
import { hoursFromAssistant, instructionFacts, isHoursFact, relevantFact, statesAddress, statesPrice } from "./facts";
import { classifyIntent, mentionedWhen, NEW_ORDER } from "./intents";
import { answerFromKnowledge } from "./knowledge";
import { answerInSpanish, gapInSpanish, looksSpanish } from "./knowledge-es";
import { analyzeLocally } from "./local-analysis";

/**
 * The local responder: the language model when no Anthropic key is configured. It classifies the
 * caller's intent (lib/platform/providers/llm/intents.ts) and writes a short reply from
 *  - the business's knowledge (hours and whether it is open now, holidays, services with durations
 *    and prices, policies, FAQs, address) — the only facts it states; questions about the business
 *    are answered in lib/platform/providers/llm/knowledge.ts, which says so when it does not know and flags
 *    the question as a knowledge gap;
 *  - what the owner wrote in the assistant's instructions and greeting (lib/platform/providers/llm/facts.ts):
 *    hours ("open Tue–Sun 7am–3pm"), prices, where to find the business, and any other statement
 *    that shares words with the caller's question — asked before a question becomes a knowledge
 *    gap, so it never says it lacks what it was told;
 *  - the assistant's personality (an opening and closing phrase in that tone);
 *  - cues in the assistant's instructions (take a message, offer the next appointment, closed/after
 *    hours, emergencies);
 *  - the conversation so far (a time given after "what day works?" continues the booking).
 * It is honest about being an automated assistant where it matters: it quotes only the prices the
 * business entered, never claims a booking is confirmed (it cannot see a calendar), and promises a
 * follow-up from the team instead.
 */

type Tone = { ack: string; closer: string; sorry: string };

const tones: Record<string, Tone> = {
  friendly: { ack: "Happy to help!", closer: "Is there anything else I can help you with?", sorry: "Oh no, I'm sorry to hear that." },
  professional: { ack: "Certainly.", closer: "Is there anything else I can assist you with?", sorry: "I apologize for the trouble." },
  caring: { ack: "Of course, I'm here to help.", closer: "Take your time — is there anything else I can do for you?", sorry: "I'm so sorry you're dealing with that." },
  energetic: { ack: "Great question!", closer: "Anything else I can help you with today?", sorry: "Oh no, that's not the experience we want for you!" },
  concise: { ack: "", closer: "Anything else?", sorry: "Sorry about that." },
  playful: { ack: "Ooh, good one!", closer: "What else can I do for you?", sorry: "Oh dear, that's no fun at all." },
};

type Cues = { takeMessage: boolean; offerNextAppointment: boolean; afterHours: boolean; emergency: string | null };

function instructionCues(instructions: string): Cues {
  const emergency = instructions
    .split(/(?<=[.!?])\s+/)
    .find((s) => /emergenc/i.test(s));
  return {
    takeMessage: /\btake (a )?message/i.test(instructions),
    offerNextAppointment: /\b(next (free|available) (appointment|slot))/i.test(instructions),
    afterHours: /\b(we are closed|we're closed|after[- ]hours|closed)\b/i.test(instructions),
    emergency: emergency ? emergency.trim() : null,
  };
}

/** The profile service the caller named, matched loosely ("a cleaning" ↔ "cleanings"). */
function mentionedService(text: string, services: string[] = []): string | null {
  const lower = text.toLowerCase();
  for (const service of services) {
    const stem = service.toLowerCase().replace(/(es|s)$/, "");
    if (stem.length >= 3 && lower.includes(stem)) return service;
  }
  return null;
}

function join(...parts: (string | null | undefined | false)[]): string {
  return parts
    .filter((p): p is string => typeof p === "string" && p.trim() !== "")
    .map((p) => p.trim())
    .join(" ");
}

const urgent = /\b(emergenc\w*|urgent|severe|bleeding|swollen|can't breathe|unbearable)\b/i;

/** What the caller wants to order, as they said it ("a birthday cake for Saturday"), in the assistant's words. */
function orderedItem(text: string): string | null {
  const match = NEW_ORDER.exec(text);
  if (!match) return null;
  const rest = text
    .slice(match.index + match[0].length)
    .split(/[.?!;\n]/)[0]
    .replace(/^\s*(?:an order (?:for|of)\s+)?/i, "")
    .replace(/\b(?:please|thanks|thank you)\b/gi, "")
    .replace(/\bmy\b/gi, "your")
    .replace(/\bme\b/gi, "you")
    .replace(/\bI\b/g, "you")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/,$/, "");
  if (!rest || rest.length > 80) return null;
  return rest;
}

export function composeReply(input: ReplyInput, intent: Intent): string {
  const { assistant, profile, history, text } = input;
  const tone = tones[assistant.personality] ?? tones.friendly;
  const cues = instructionCues(assistant.instructions);
  const biz = profile.name;
  const services = profile.services ?? [];
  const service = mentionedService(text, services);
  const firstTurn = history.length === 0;
  const facts = instructionFacts(assistant);
  /** The owner's statement about what the caller asked, other than hours (answered on their own). */
  const toldAbout = (filter: (fact: string) => boolean = () => true) => relevantFact(facts.filter(filter), text, isHoursFact);

  switch (intent) {
    case "greeting": {
      if (firstTurn && assistant.greeting?.trim()) return assistant.greeting.trim();
      // "Hi, I've got kind of an odd one about my neighbor's fence": more than a hello — answered as what it says.
      if (text.replace(/^\W*(?:hi|hello|hey|good (?:morning|afternoon|evening)|hola|buen(?:os|as) (?:d[ií]as|tardes|noches))\b[\s,.!]*(?:there\b[\s,.!]*)?/i, "").split(/\s+/).filter(Boolean).length >= 4) {
        return composeReply(input, "other");
      }
      if (firstTurn) return `Hello, thanks for contacting ${biz}! This is ${assistant.name}, how can I help you today?`;
      // The assistant's own greeting is not the caller's earlier turn: "again" only when the caller spoke before.
      return history.some((m) => m.role === "user") ? `Hello again! How else can I help you?` : `Hello! How can I help you today?`;
    }

    case "appointment": {
      const when = mentionedWhen(text);
      if (when) {
        return join(
          `${when.charAt(0).toUpperCase()}${when.slice(1)} — noted.`,
          `I can't see the live calendar from here, so I can't confirm a time yet${service ? ` for ${service}` : ""}; I can take your name and number for the team at ${biz} to confirm it.`,
          tone.closer,
        );
      }
      return join(
        tone.ack,
        cues.offerNextAppointment
          ? `I'd be glad to find you the next free appointment${service ? ` for ${service}` : ""}.`
          : `I'd be glad to help you book an appointment${service ? ` for ${service}` : ""}.`,
        profile.hours ? `We're open ${profile.hours}.` : null,
        `What day and time work best for you?`,
      );
    }

    case "human_handoff":
      return join(
        `Of course.`,
        `I'm the automated assistant, and nobody from ${biz} is on the line, but I can write down a request for the team to return your call.`,
        `Could I have your name and the best number to reach you?`,
      );

    case "complaint":
      return join(
        tone.sorry,
        /\bbill|billing|charged|refund\b/i.test(text)
          ? `I can write the problem with your bill down for the team at ${biz} to review.`
          : `I can write your concern down for the team at ${biz}.`,
        cues.emergency && urgent.test(text) ? cues.emergency : null,
        `Could you tell me a little more about what happened?`,
      );

    case "order": {
      if (NEW_ORDER.test(text)) {
        const item = orderedItem(text);
        return join(
          tone.ack,
          item ? `I've noted that you'd like to order ${item}.` : `I've noted that you'd like to place an order.`,
          toldAbout(),
          `I can write it down for the team at ${biz} to confirm.`,
          `Could I have your name and the best number to reach you?`,
        );
      }
      const existing = /\b(my order|order (status|number)|track\w*|where('s| is) my|shipped|hasn't (arrived|come|been delivered)|return)\b/i.test(text);
      const told = toldAbout();
      if (!existing && told) return join(told, `Would you like to place an order? I can pass the details to the team at ${biz}.`);
      return join(
        tone.ack,
        `I can't look up orders from here, but if you give me your order number or the name it's under, I can write it down for the team at ${biz} to check.`,
      );
    }

    case "spam":
      return `Thanks, but we're not interested. Please remove this number from your list. Goodbye.`;

    default: {
      if (urgent.test(text) && cues.emergency) return join(tone.sorry, cues.emergency);
      // A Spanish conversation (these words, or the assistant's last line) gets this answer in Spanish.
      const lastSaid = [...history].reverse().find((m) => m.role === "assistant")?.content ?? "";
      if (looksSpanish(text) || looksSpanish(lastSaid)) {
        return join(
          `Gracias por su mensaje.`,
          `Soy ${assistant.name}, el asistente automático de ${biz}: puedo ayudarle con el horario y las citas, o pasarle un mensaje al equipo.`,
          cues.takeMessage ? `¿Quiere dejar un mensaje?` : `¿Qué desea hacer?`,
        );
      }
      return join(
        `Thanks for your message.`,
        `I'm ${assistant.name}, the automated assistant for ${biz}: I can help with opening hours and appointments, or pass a message to the team.`,
        cues.takeMessage ? `Would you like to leave a message?` : `What would you like to do?`,
      );
    }
  }
}

/**
 * The owner's own words for a question the structured knowledge does not answer: hours written in
 * the instructions or greeting, a stated price, where to find the business, or any statement that
 * shares words with the question.
 */
function toldInInstructions(input: ReplyInput, intent: Intent, tone: Tone): string | null {
  const { assistant, text } = input;
  const facts = instructionFacts(assistant);
  if (intent === "hours") {
    const hours = hoursFromAssistant(assistant);
    return hours ? join(tone.ack, hours, tone.closer) : null;
  }
  if (intent === "pricing") {
    const priced = relevantFact(facts.filter(statesPrice), text, isHoursFact) ?? facts.find(statesPrice);
    return priced ? join(tone.ack, priced, `For anything more exact, I can take a message asking the team for a quote.`, tone.closer) : null;
  }
  if (/\b(where|address|located|location|directions|find you|parking)\b/i.test(text)) {
    const where = relevantFact(facts.filter(statesAddress), text, isHoursFact) ?? facts.find(statesAddress);
    return where ? join(where, tone.closer) : null;
  }
  const told = relevantFact(facts, text, isHoursFact);
  return told ? join(told, tone.closer) : null;
}

/** Thanks and nothing else ("thanks", "gracias", "ok thank you so much"). */
const THANKS_ONLY = /^(?:(?:ok(?:ay)?|oh|great|cool|perfect|alright|all right|vale|bueno|perfecto|muy bien|s[ií])[\s,.!]+)?(?:thanks?(?: you)?(?: so much| very much| a lot)?|thank u|ty|(?:muchas |mil )?gracias(?: por todo)?)[\s,.!]*$/i;
const THANKS_SPANISH = /gracias/i;

/** The assistant's question that closes a task: "Is there anything else I can help you with?". */
const ASKED_ANYTHING_ELSE = /(anything else|algo m[aá]s)[^.!?]*\?\s*$/i;
/** A short yes, or the number just read back confirmed ("sí, correcto", "a este número", "yes, that's right"). */
const CONFIRMS = /^(?:s[ií]|yes|yeah|yep|yup|correct[oa]?|that'?s (?:right|correct|it)|right|exact(?:o|ly)|as[ií] es|ok(?:ay)?|perfect[oa]?|(?:muy |est[aá] )?bien|great|good|a este (?:mismo )?n[uú]mero|(?:this|that|the same|same) number|ese mismo|that one)(?:[\s,.!]+(?:s[ií]|yes|correct[oa]?|es correcto|that'?s right|gracias|thanks?(?: you)?|perfect[oa]?|a este (?:mismo )?n[uú]mero|this number))*[\s,.!]*$/i;

function reply(input: ReplyInput): Reply {
  // A bare thanks mid-call: welcomed, in the caller's language, and asked if there is anything else.
  if (THANKS_ONLY.test(input.text.trim())) {
    return THANKS_SPANISH.test(input.text)
      ? { text: "¡De nada! ¿Puedo ayudarle con algo más?", intent: "other" }
      : { text: "You're welcome! Is there anything else I can help you with?", intent: "other" };
  }
  // "Sí, correcto" after the message was read back and "anything else?" asked: taken as said, and the
  // question stands — never the offer to take a message just taken.
  const lastSaid = [...input.history].reverse().find((m) => m.role === "assistant")?.content ?? "";
  if (ASKED_ANYTHING_ELSE.test(lastSaid) && CONFIRMS.test(input.text.trim())) {
    return /algo m[aá]s/i.test(lastSaid)
      ? { text: "Muy bien. ¿Hay algo más en que pueda ayudarle?", intent: "other" }
      : { text: "Great. Is there anything else I can help you with?", intent: "other" };
  }
  // A Spanish caller's question about the business is answered in Spanish (the rest of the call is
  // already: the engine's lines, the booking dialogue).
  if (looksSpanish(input.text)) {
    const spanish = answerInSpanish(input.text, input.profile);
    if (spanish) return spanish;
  }
  const { intent } = classifyIntent(input.text, input.history);
  const both = twoQuestions(input);
  if (both) return both;
  // An emergency the instructions cover is answered with their words, before any knowledge lookup.
  const emergency = urgent.test(input.text) && instructionCues(input.assistant.instructions).emergency;
  const tone = tones[input.assistant.personality] ?? tones.friendly;
  const known = emergency ? null : answerFromKnowledge(input, intent, tone);
  if (known && !known.knowledgeGap) return { text: known.text, intent };
  // Not in the business's knowledge: what the owner wrote in the instructions or greeting counts too.
  const handledByComposer = ["spam", "human_handoff", "complaint", "order", "appointment"].includes(intent);
  const told = emergency || handledByComposer ? null : toldInInstructions(input, intent, tone);
  if (told) return { text: told, intent };
  // A gap asked in Spanish is said in Spanish (the answers themselves are the owner's own words).
  if (known) return { text: looksSpanish(input.text) ? gapInSpanish(input.profile.name) : known.text, intent, knowledgeGap: known.knowledgeGap };
  return { text: composeReply(input, intent), intent };
}

/** Where one question ends and another begins ("how much is X, and are you open Saturdays?"). */
const NEXT_QUESTION = /\?\s+|[,;]\s*(?:and|also|plus|oh and)\s+(?=(?:are|is|do|does|can|could|what|when|where|how|will|would)\b)|\s+and\s+(?:also\s+)?(?=(?:are you|is there|do you|does it|what(?:'s| is| are)|when|where|how (?:much|long|late|early))\b)/i;

/**
 * Two questions about the business in one breath: each answered from what the business wrote, one
 * after the other, with one closer. Null unless both are answered (a gap or a booking is left to the
 * one-question path).
 */
function twoQuestions(input: ReplyInput): Reply | null {
  const parts = input.text.split(NEXT_QUESTION).map((p) => p.trim()).filter((p) => p.split(/\s+/).length >= 3);
  if (parts.length < 2 || parts.length > 3) return null;
  const tone = tones[input.assistant.personality] ?? tones.friendly;
  const answers: string[] = [];
  let first: Intent | null = null;
  for (const part of parts) {
    const question = /\?$/.test(part) ? part : `${part}?`;
    const { intent } = classifyIntent(question, input.history);
    if (!["hours", "pricing", "other"].includes(intent)) return null;
    const known = answerFromKnowledge({ ...input, text: question }, intent, tone);
    if (!known || known.knowledgeGap) return null;
    const text = known.text.replace(tone.closer, "").trim();
    if (!answers.includes(text)) answers.push(text);
    first ??= intent;
  }
  if (answers.length < 2) return null;
  return { text: join(...answers, tone.closer), intent: first ?? "other" };
}

/** The offline language model. Deterministic: the same conversation gets the same reply. */
export function createLocalResponder(): LlmProvider {
  return {
    name: "local",
    async generateReply(input) {
      return reply(input);
    },
    async *streamReply(input): AsyncGenerator<ReplyEvent> {
      const result = reply(input);
      // Sentence by sentence, the way a remote model's text arrives.
      for (const sentence of splitSentences(result.text)) {
        yield { type: "delta", text: sentence + " " };
      }
      yield { type: "done", reply: result };
    },
    async analyzeConversation(input) {
      return analyzeLocally(input);
    },
  };
}

export type { AssistantPersona, BusinessInfo, ChatMessage };
