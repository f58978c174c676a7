import "server-only";
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { type AssistantToolCall, type TranscriptTurn } from "@/db/schema";
import { resolvePersonality } from "@/lib/agents/assistants/personalities";
import { DEFAULT_CALL_RULES } from "@/lib/agents/conversation/call-rules";
import { hearingContext, loadTurnContext } from "@/lib/agents/conversation/context";
import { engineTurn, isOutOfCredits, paidTurn, TEXT_ANSWERS } from "@/lib/agents/conversation/turn";
import type { ChatMessage } from "@/lib/platform/providers/llm/interface";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { assistantContext } from "@/lib/phone/voice/context";
import { toolsForTurn } from "@/lib/phone/voice/service";
import { bookingInProgress, handleBookingTurn } from "@/lib/scheduling/dialogue/conversation";
import { parseBookingIntent, parsePhoneDigits } from "@/lib/scheduling/dialogue/parse";
import { normalizePhone } from "@/lib/scheduling/schema";
import type { AgentSender } from "./conversations";
import { requirePhoneProof } from "./phone-proof";
import { recordAssistantReply } from "@/lib/agents/assistants/replies";

/**
 * What another AI agent can ask a business's agent to do (its card lists them). A skill is one
 * entry in `orgAgentSkills` (a business with no bookable service refuses the booking skills). A message
 * picks a skill with `metadata.skill` (or `skillId`), or a data part `{skill}`; without one it is a
 * question.
 */
export type SkillInput = {
  db: Db;
  organizationId: string;
  /** The message's text (its text parts; data parts when there is no text). */
  text: string;
  data: Record<string, unknown> | null;
  sender: AgentSender;
  /** Earlier turns of this conversation (context), oldest first. */
  history: TranscriptTurn[];
  /** The A2A context (conversation) id: a booking under way continues in it. */
  contextId?: string;
};

export type SkillResult = { text: string; summary: string; intent: string | null; assistantId: string | null };

/** A refusal the calling agent should read (the task fails with this text). */
export class SkillError extends Error {}

export type OrgAgentSkill = {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  run(input: SkillInput): Promise<SkillResult>;
};

function chatHistory(turns: TranscriptTurn[]): ChatMessage[] {
  return turns.slice(-10).map((t) => ({ role: t.speaker === "assistant" ? ("assistant" as const) : ("user" as const), content: t.text }));
}

export const askQuestionSkill: OrgAgentSkill = {
  id: "ask_question",
  name: "Ask the business a question",
  description:
    "Ask about opening hours, services, prices, availability or anything else; the business's AI assistant answers from what the business has told it (and its connected tools).",
  tags: ["question", "faq", "hours", "services"],
  examples: ["What are your opening hours on Saturday?", "Do you offer teeth whitening?"],
  async run({ db, organizationId, text, data, history }) {
    let context;
    try {
      context = await assistantContext(db, organizationId);
    } catch {
      throw new SkillError("This business has no active assistant to answer questions right now. Try leaving a message instead.");
    }
    const { assistant, business: profile } = context;
    // The same engine turn as a call or a text (lib/agents/conversation/turn.ts): opt-out in any words for the
    // customer's number (one confirmation text to it), a truthful "are you a robot?", free. Erasure needs
    // proof of the number, so an agent's "forget me" is answered, never acted on here.
    const phone = contactPhone(data, text);
    const outcome = await engineTurn({
      db,
      channel: "a2a",
      organizationId,
      caller: phone,
      text,
      hear: hearingContext(profile, await loadTurnContext(db, organizationId), { now: new Date() }),
      situation: { takingMessage: false, bookingActive: false, forwardTo: null, rules: assistant.callRules ?? DEFAULT_CALL_RULES, silentPrompts: 0, canTransfer: false },
      business: profile.name,
      assistantName: assistant.persona.name,
      transcript: history,
      record: {},
      answers: [...TEXT_ANSWERS, "forget"],
      confirmOptOut: true,
    });
    if (outcome.kind === "line") {
      const did = outcome.decision.kind === "opt_out" && phone ? `An AI agent opted ${phone} out of texts and calls: ${text.slice(0, 200)}` : `An AI agent asked: ${text.slice(0, 300)}`;
      return { text: outcome.line, summary: did, intent: outcome.decision.kind, assistantId: assistant.id };
    }
    const llm = await selectLlm(db, organizationId);
    const turnId = crypto.randomUUID();
    const reference = `agent-turn:${turnId}`;
    const started = performance.now();
    const tools = await toolsForTurn(db, organizationId, llm);
    try {
      // Charged once, refunded once if the answer fails.
      const reply = await paidTurn(db, { channel: "a2a", organizationId, reference, metadata: { source: "agent", assistantId: assistant.id, turnId } }, () =>
        llm.generateReply({
          assistant: { ...assistant.persona, personalityDescription: resolvePersonality(assistant.persona.personality).description },
          profile,
          history: chatHistory(history),
          text,
          ...(tools ? { tools } : {}),
        }),
      );
      const totalMs = Math.round(performance.now() - started);
      const toolCalls: AssistantToolCall[] = tools?.calls ?? [];
      await recordAssistantReply(db, {
        id: crypto.randomUUID(),
        organizationId,
        assistantId: assistant.id,
        source: "agent",
        intent: reply.intent,
        inputText: text.slice(0, 4000),
        replyText: reply.text,
        llmProvider: llm.name,
        llmTotalMs: totalMs,
        totalMs,
        toolCalls,
      });
      return { text: reply.text, summary: `An AI agent asked: ${text.slice(0, 300)}`, intent: reply.intent, assistantId: assistant.id };
    } catch (error) {
      if (isOutOfCredits(error)) throw new SkillError("The business cannot answer questions right now. Try leaving a message instead.");
      throw new SkillError(`The assistant could not answer just now (${(error as Error).message}). Please try again later or leave a message.`);
    } finally {
      await tools?.close();
    }
  },
};

function describeContact(data: Record<string, unknown> | null): string {
  if (!data) return "";
  const parts = ["name", "callbackNumber", "phone", "email"]
    .map((key) => (typeof data[key] === "string" && data[key] ? `${key === "callbackNumber" ? "callback" : key}: ${data[key]}` : null))
    .filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

export const leaveMessageSkill: OrgAgentSkill = {
  id: "leave_message",
  name: "Leave a message for the business",
  description:
    "Leave a message for the business's team, e.g. on behalf of a customer; add name, callbackNumber or email in a data part so they can reply. It appears in their Call History.",
  tags: ["message", "callback", "contact"],
  examples: ["Please ask Dr. Lee to call Sam Park back about the crown fitting: +14155550123."],
  async run({ text, data, sender }) {
    const from = sender.name ?? "An AI agent";
    return {
      text: "Thank you. Your message has been passed on to the team, who will follow up.",
      summary: `Message from ${from}${describeContact(data)}: ${text.slice(0, 1000)}`,
      intent: "message",
      assistantId: null,
    };
  },
};

const BOOKING_WORDS: Record<string, string> = { book_appointment: "book an appointment", reschedule_appointment: "reschedule my appointment", cancel_appointment: "cancel my appointment" };

function contactPhone(data: Record<string, unknown> | null, text: string): string | null {
  for (const key of ["customerPhone", "phone", "callbackNumber"]) {
    const value = data?.[key];
    if (typeof value === "string" && normalizePhone(value)) return normalizePhone(value);
  }
  const digits = parsePhoneDigits(text);
  return digits ? normalizePhone(digits) : null;
}

/**
 * Booking by another AI agent, in conversation like a caller: the same dialogue as the phone (only
 * free times offered, the chosen one held and read back, booked on "yes"), continued across the
 * messages of one A2A context. The customer's number comes from a data part (customerPhone, phone
 * or callbackNumber) or the text; reschedule and cancel find the appointment by it.
 */
function bookingSkill(id: "book_appointment" | "reschedule_appointment" | "cancel_appointment", name: string, description: string, examples: string[]): OrgAgentSkill {
  return {
    id,
    name,
    description,
    tags: ["appointments", "booking"],
    examples,
    async run({ db, organizationId, text: received, data, history, contextId }) {
      const ref = contextId ?? crypto.randomUUID();
      let text = received;
      let phone = contactPhone(data, [text, ...history.map((t) => t.text)].join(" "));
      if (id !== "book_appointment") {
        // Moving or cancelling needs proof of the number first; nothing is read back before it.
        const proof = await requirePhoneProof(db, { organizationId, contextId: ref, text, data, claimedPhone: contactPhone(data, text) });
        if (proof.kind === "reply") return { text: proof.text, summary: `An AI agent asked to change an appointment: ${proof.text.slice(0, 200)}`, intent: "appointment", assistantId: null };
        phone = proof.phone;
        if (proof.request) text = proof.request;
      }
      const inProgress = await bookingInProgress(db, organizationId, "a2a", ref);
      const name = typeof data?.customerName === "string" ? ` My name is ${data.customerName}.` : "";
      // A first message that does not say what it wants gets the skill's words in front.
      const said = !inProgress && !parseBookingIntent(text) ? `I'd like to ${BOOKING_WORDS[id]}. ${text}${name}` : `${text}${inProgress ? "" : name}`;
      const turn = await handleBookingTurn(db, organizationId, { channel: "a2a", ref, callerPhone: phone, text: said });
      if (!turn) throw new SkillError("This business does not take bookings through its agent: it has no bookable services. Try leaving a message instead.");
      const summary = turn.appointment
        ? `An AI agent ${turn.events.includes("cancelled") ? "cancelled" : turn.events.includes("moved") ? "moved" : "booked"}: ${turn.appointment.readBack}`
        : `An AI agent is booking: ${text.slice(0, 300)}`;
      return { text: turn.reply, summary, intent: "appointment", assistantId: null };
    },
  };
}

export const bookAppointmentSkill = bookingSkill(
  "book_appointment",
  "Book an appointment",
  "Book an appointment in conversation: name the service and the day or time you want; the agent offers only free times, holds the one you pick, reads it back and books it when you answer yes. Give the customer's phone in a data part (customerPhone) and their name (customerName), or in the text.",
  ["Book a haircut for Jane Doe (+14155550123) on Tuesday at 10 AM.", "What times are free for a cleaning tomorrow?"],
);
export const rescheduleAppointmentSkill = bookingSkill(
  "reschedule_appointment",
  "Reschedule an appointment",
  "Move a customer's upcoming appointment, found by their phone number (data part customerPhone, or in the text): a one-time code is texted to that number first; send it back (text or data verificationCode), then say the new day and time; the agent reads the change back and makes it when you answer yes.",
  ["Move the appointment of +14155550123 to Wednesday at 2 PM."],
);
export const cancelAppointmentSkill = bookingSkill(
  "cancel_appointment",
  "Cancel an appointment",
  "Cancel a customer's upcoming appointment, found by their phone number (data part customerPhone, or in the text): a one-time code is texted to that number first; once you send it back (text or data verificationCode) the agent reads the appointment back and cancels it when you answer yes.",
  ["Cancel the appointment of +14155550123."],
);

/** The skills of every organization's agent, in the order its card lists them. */
export const orgAgentSkills: OrgAgentSkill[] = [askQuestionSkill, leaveMessageSkill, bookAppointmentSkill, rescheduleAppointmentSkill, cancelAppointmentSkill];

/** The skill a message asked for (none: a question); null for a skill this agent does not have. */
export function findSkill(id: string | null | undefined): OrgAgentSkill | null {
  if (!id) return askQuestionSkill;
  return orgAgentSkills.find((s) => s.id === id) ?? null;
}
