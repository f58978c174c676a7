import { splitSentences } from "@/lib/text/sentences";
import type { AssistantPersona, BusinessInfo, ChatMessage, Intent, LlmProvider, Reply, ReplyEvent, ReplyInput } from "./interface";
import { classifyIntent, mentionedWhen } from "./intents";
import { analyzeLocally } from "./local-analysis";

/**
 * The local responder: the language model when no Anthropic key is configured. It classifies the
 * caller's intent (lib/providers/llm/intents.ts) and writes a short reply from
 *  - the business profile (name, hours, address, services) — the only facts it states;
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

export function composeReply(input: ReplyInput, intent: Intent): string {
  const { assistant, profile, history, text } = input;
  const tone = tones[assistant.personality] ?? tones.friendly;
  const cues = instructionCues(assistant.instructions);
  const biz = profile.name;
  const services = profile.services ?? [];
  const service = mentionedService(text, services);
  const firstTurn = history.length === 0;

  switch (intent) {
    case "greeting":
      if (firstTurn && assistant.greeting?.trim()) return assistant.greeting.trim();
      return firstTurn
        ? `Hello, thanks for contacting ${biz}! This is ${assistant.name}, how can I help you today?`
        : `Hello again! How else can I help you?`;

    case "hours":
      if (!profile.hours) {
        return join(
          `I don't have ${biz}'s opening hours on hand, so I won't guess.`,
          `I'll have someone from the team follow up to confirm them.`,
          tone.closer,
        );
      }
      return join(
        cues.afterHours ? `We're closed right now.` : tone.ack,
        `Our hours are ${profile.hours}.`,
        profile.address ? `You'll find us at ${profile.address}.` : null,
        cues.takeMessage ? `I can take a message for the team in the meantime.` : tone.closer,
      );

    case "pricing":
      return join(
        `I'm ${biz}'s automated assistant and I don't have exact prices on hand, so I won't guess.`,
        `I'll have someone from the team follow up with a quote${service ? ` for ${service}` : ""}.`,
        services.length && !service ? `In the meantime, I can tell you about our services or help you book a visit.` : tone.closer,
      );

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
        profile.hours ? `We're open ${profile.hours}.` : null,
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

    case "order":
      return join(
        tone.ack,
        `I can't look up orders from here, but if you give me your order number or the name it's under, I'll have the team at ${biz} check on it and follow up with you.`,
      );

    case "spam":
      return `Thanks, but we're not interested. Please remove this number from your list. Goodbye.`;

    default: {
      if (urgent.test(text) && cues.emergency) return join(tone.sorry, cues.emergency);
      if (/\b(where|address|located|location|directions|find you|parking)\b/i.test(text)) {
        return profile.address
          ? join(`We're at ${profile.address}.`, tone.closer)
          : join(`I don't have our address on hand, so I'll have someone from ${biz} follow up with directions.`, tone.closer);
      }
      if (service || /\b(services?|do you (do|offer|have)|offer)\b/i.test(text)) {
        if (services.length) return join(`At ${biz} we offer ${listServices(services)}.`, `Would you like to book one?`);
      }
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
    async analyzeConversation(input) {
      return analyzeLocally(input);
    },
  };
}

export type { AssistantPersona, BusinessInfo, ChatMessage };
