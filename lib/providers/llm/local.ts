import { splitSentences } from "@/lib/text/sentences";
import type { AssistantPersona, BusinessInfo, ChatMessage, Intent, LlmProvider, Reply, ReplyEvent, ReplyInput } from "./interface";
import { hoursFromAssistant, instructionFacts, isHoursFact, relevantFact, statesAddress, statesPrice } from "./facts";
import { classifyIntent, mentionedWhen, NEW_ORDER } from "./intents";

/**
 * The local responder: the language model when no Anthropic key is configured. It classifies the
 * caller's intent (lib/providers/llm/intents.ts) and writes a short reply from
 *  - the business profile (name, hours, address, services) and, when the profile has no hours, the
 *    phone numbers' business hours (both gathered by lib/voice/context.ts), with "open right now";
 *  - what the owner wrote in the assistant's instructions and greeting (lib/providers/llm/facts.ts):
 *    hours ("open Tue–Sun 7am–3pm"), prices, where to find the business, and any other statement
 *    that shares words with the caller's question — it never says it lacks what it was told;
 *  - the assistant's personality (an opening and closing phrase in that tone);
 *  - cues in the assistant's instructions (take a message, offer the next appointment, closed/after
 *    hours, emergencies);
 *  - the conversation so far (a time given after "what day works?" continues the booking).
 * It is honest about being an automated assistant where it matters: it never quotes a price (it has
 * none), never claims a booking is confirmed (it cannot see a calendar), and promises a follow-up
 * from the team instead.
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
    afterHours: /\b(we are closed|we're closed|after[- ]hours)\b/i.test(instructions),
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

function listServices(services: string[]): string {
  if (services.length <= 1) return services.join("");
  return `${services.slice(0, -1).join(", ")} and ${services[services.length - 1]}`;
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

function nowLine(profile: ReplyInput["profile"], cues: Cues): string | null {
  if (profile.openNow === true) return "We're open right now.";
  if (profile.openNow === false || cues.afterHours) return "We're closed right now.";
  return null;
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
  // Hours: the profile's (or the numbers'), else what the owner wrote in the instructions or greeting.
  const hoursSaid = profile.hours ? `Our hours are ${profile.hours}.` : hoursFromAssistant(assistant);
  /** The owner's statement about what the caller asked, other than hours (answered on their own). */
  const toldAbout = (filter: (fact: string) => boolean = () => true) => relevantFact(facts.filter(filter), text, isHoursFact);

  switch (intent) {
    case "greeting":
      if (firstTurn && assistant.greeting?.trim()) return assistant.greeting.trim();
      return firstTurn
        ? `Hello, thanks for contacting ${biz}! This is ${assistant.name}, how can I help you today?`
        : `Hello again! How else can I help you?`;

    case "hours": {
      if (!hoursSaid) {
        return join(
          `I don't have ${biz}'s opening hours on hand, so I won't guess.`,
          `I'll have someone from the team follow up to confirm them.`,
          tone.closer,
        );
      }
      const now = nowLine(profile, cues);
      return join(
        now ?? tone.ack,
        hoursSaid,
        profile.address ? `You'll find us at ${profile.address}.` : null,
        now === "We're closed right now." && cues.takeMessage ? `I can take a message for the team in the meantime.` : tone.closer,
      );
    }

    case "pricing": {
      const priced = toldAbout(statesPrice) ?? facts.find(statesPrice);
      if (priced) return join(tone.ack, priced, `For anything more exact, I can have the team follow up with a quote.`, tone.closer);
      return join(
        `I'm ${biz}'s automated assistant and I don't have exact prices on hand, so I won't guess.`,
        `I'll have someone from the team follow up with a quote${service ? ` for ${service}` : ""}.`,
        services.length && !service ? `In the meantime, I can tell you about our services or help you book a visit.` : tone.closer,
      );
    }

    case "appointment": {
      const when = mentionedWhen(text);
      if (when) {
        return join(
          `${when.charAt(0).toUpperCase()}${when.slice(1)} — noted.`,
          `I can't see the live calendar from here, so I've passed your request${service ? ` for ${service}` : ""} to the team at ${biz}, and they'll confirm it with you shortly.`,
          tone.closer,
        );
      }
      return join(
        tone.ack,
        cues.offerNextAppointment
          ? `I'd be glad to find you the next free appointment${service ? ` for ${service}` : ""}.`
          : `I'd be glad to help you book an appointment${service ? ` for ${service}` : ""}.`,
        hoursSaid,
        `What day and time work best for you?`,
      );
    }

    case "human_handoff":
      return join(
        `Of course.`,
        `I'm the automated assistant, so I'll let the team at ${biz} know you'd like to speak with a person, and someone will get back to you as soon as possible.`,
        `Could I have your name and the best number to reach you?`,
      );

    case "complaint":
      return join(
        tone.sorry,
        /\bbill|billing|charged|refund\b/i.test(text)
          ? `I've noted the problem with your bill and will pass it to the team at ${biz}, who will review it and follow up with you.`
          : `I've noted your concern and will pass it to the team at ${biz}, who will follow up with you.`,
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
          `I'll pass it to the team at ${biz}, and they'll confirm the details with you.`,
          `Could I have your name and the best number to reach you?`,
        );
      }
      const existing = /\b(my order|order (status|number)|track\w*|where('s| is) my|shipped|hasn't (arrived|come|been delivered)|return)\b/i.test(text);
      const told = toldAbout();
      if (!existing && told) return join(told, `Would you like to place an order? I can pass the details to the team at ${biz}.`);
      return join(
        tone.ack,
        `I can't look up orders from here, but if you give me your order number or the name it's under, I'll have the team at ${biz} check on it and follow up with you.`,
      );
    }

    case "spam":
      return `Thanks, but we're not interested. Please remove this number from your list. Goodbye.`;

    default: {
      if (urgent.test(text) && cues.emergency) return join(tone.sorry, cues.emergency);
      if (/\b(where|address|located|location|directions|find you|parking)\b/i.test(text)) {
        if (profile.address) return join(`We're at ${profile.address}.`, toldAbout(statesAddress), tone.closer);
        const where = toldAbout(statesAddress) ?? facts.find(statesAddress);
        return where
          ? join(where, tone.closer)
          : join(`I don't have our address on hand, so I'll have someone from ${biz} follow up with directions.`, tone.closer);
      }
      if (service || /\b(services?|do you (do|offer|have)|offer)\b/i.test(text)) {
        if (services.length) return join(`At ${biz} we offer ${listServices(services)}.`, toldAbout(), `Would you like to book one?`);
      }
      const told = toldAbout();
      if (told) return join(told, tone.closer);
      return join(
        `Thanks for your message.`,
        `I'm ${assistant.name}, the automated assistant for ${biz}: I can help with opening hours and appointments, or pass a message to the team.`,
        cues.takeMessage ? `Would you like to leave a message?` : `What would you like to do?`,
      );
    }
  }
}

function reply(input: ReplyInput): Reply {
  const { intent } = classifyIntent(input.text, input.history);
  return { text: composeReply(input, intent), intent };
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
  };
}

export type { AssistantPersona, BusinessInfo, ChatMessage };
