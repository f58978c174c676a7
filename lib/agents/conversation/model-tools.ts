import "server-only";
import crypto from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import type { CallRule } from "@/db/schema";
import { normalizePhone } from "@/lib/scheduling/schema";
import type { ToolCallResult, ToolDefinition } from "@/lib/platform/providers/llm/interface";
import { refuse, toolSet, type NamedTools } from "@/lib/platform/providers/llm/tool-results";
import { createTask, taskExists } from "@/lib/phone/callers/tasks";
import { recordAction } from "@/lib/phone/telephony/actions";
import { TASK_TITLES, who } from "@/lib/platform/text/receptionist";
import { ruleFor } from "./call-rules";

/**
 * The conversation tools a language model gets besides the booking ones (issue 27, "with a language
 * model"): `take_message` writes the task row (name, number, message, urgent) and answers success
 * only when that row exists; `transfer` asks the channel to connect the call to the owner's number —
 * the forward-to, or the number of the owner's rule for an emergency or a named person — and is
 * refused where the channel cannot connect a call (a text, a chat, an agent) or the owner's rule says
 * to take a message instead. The owner's rules are also applied before the model by `decide()`.
 */
export type ModelConversationSetup = {
  channel: string;
  /** The call id, text thread, chat session or agent conversation. */
  ref: string;
  callerPhone: string | null;
  /** Can this channel connect a call (<Dial>)? */
  canTransfer?: boolean;
  forwardTo?: string | null;
  rules?: CallRule[] | null;
  /** Where the task and the action point (the call or the text). */
  record?: { callId?: string | null; messageId?: string | null };
};

export const CONVERSATION_TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    name: "take_message",
    description:
      "Writes a message for the business's team (a task they will act on). Use it when the caller wants a call back, wants to leave a message, or you cannot help them. First get their name and what it is about (and a number when the conversation has none), read the number back, then call this. Say the team will call back ONLY after this succeeds.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The caller's name as they gave it." },
        message: { type: "string", description: "What the caller wants the team to know or do, in a sentence." },
        phone: { type: "string", description: "The number to call back, only when the caller gave one or the conversation has none." },
        urgent: { type: "boolean", description: "True for an emergency or a complaint." },
      },
      required: ["name", "message"],
    },
  },
  {
    name: "transfer",
    description:
      "Connects the caller to a person at the business (the caller asked for one, asked for someone by name, or has an emergency). If it is refused, offer to take a message instead. Say you are connecting them ONLY after this succeeds.",
    inputSchema: {
      type: "object",
      properties: {
        reason: { type: "string", enum: ["asked", "person", "emergency"], description: "Why: the caller asked for a person, for a named person, or it is an emergency." },
        person: { type: "string", description: "The person the caller asked for, by name." },
      },
      required: ["reason"],
    },
  },
];

const inputs = {
  take_message: z.object({
    name: z.string().trim().min(1, "ask the caller for their name").max(120),
    message: z.string().trim().min(1, "ask what the message is").max(2000),
    phone: z.string().trim().max(40).optional(),
    urgent: z.boolean().optional(),
  }),
  transfer: z.object({ reason: z.enum(["asked", "person", "emergency"]), person: z.string().trim().max(120).optional() }),
};

export type ModelConversationTools = NamedTools;

export function conversationToolsForReply(db: Db, organizationId: string, setup: ModelConversationSetup): ModelConversationTools {
  const callId = setup.record?.callId ?? null;
  const messageId = setup.record?.messageId ?? null;

  const handlers = {
    async take_message(input: z.infer<typeof inputs.take_message>): Promise<ToolCallResult> {
      const number = (input.phone ? normalizePhone(input.phone) : null) ?? (setup.callerPhone ? normalizePhone(setup.callerPhone) : null);
      if (!number) return refuse("No number to call back: ask the caller for the best number, read it back, then call take_message again.");
      const urgent = input.urgent ?? false;
      // The same message said twice (a retried webhook, the model calling twice) is one task.
      const digest = crypto.createHash("sha256").update(`${input.name}\u0000${number}\u0000${input.message}`).digest("hex").slice(0, 16);
      const taskKey = `${setup.channel}:${setup.ref}:model-message:${digest}`;
      const made = await createTask(db, {
        organizationId,
        kind: "message",
        title: `${urgent ? "URGENT: " : ""}${TASK_TITLES.message(who(input.name, number), input.message)}`,
        detail: input.message,
        contactNumber: number,
        contactName: input.name,
        callId: callId ?? undefined,
        messageId: messageId ?? undefined,
        sourceKey: taskKey,
        urgent,
      });
      if (!made && !(await taskExists(db, organizationId, taskKey))) return refuse("The message could not be saved: apologise and ask the caller to try again later.");
      if (made) {
        await recordAction(db, { organizationId, callId, messageId, type: "took_message", detail: { message: input.message, urgent, taskKey, name: input.name, number, by: "model" } });
      }
      return { text: `Saved for the team${urgent ? " as urgent" : ""}: ${input.name} at ${number}. You may now tell the caller the team will call them back.`, isError: false, effect: { kind: "task" } };
    },
    async transfer(input: z.infer<typeof inputs.transfer>): Promise<ToolCallResult> {
      if (!setup.canTransfer) return refuse("This conversation cannot be connected to a person (it is not a phone call). Offer to take a message with take_message instead.");
      const rule = input.reason === "emergency" ? ruleFor(setup.rules, "emergency") : input.reason === "person" ? ruleFor(setup.rules, "asks_for_person", input.person) : null;
      if (rule && rule.action !== "transfer") {
        return refuse(`The business asks for a message to be taken for this instead of a transfer: get the caller's name and message and call take_message${rule.action === "urgent_task" || input.reason === "emergency" ? " with urgent true" : ""}.`);
      }
      const to = rule?.to ?? setup.forwardTo ?? null;
      if (!to) return refuse("Nobody can be reached by phone right now. Offer to take a message with take_message instead.");
      return { text: "The call will be connected when you finish this reply. Tell the caller, in one short sentence, that you are connecting them now.", isError: false, effect: { kind: "transfer", to } };
    },
  };

  return toolSet(CONVERSATION_TOOL_DEFINITIONS, inputs, handlers);
}
