import { z } from "zod";
import type { RelayInterruptions } from "@/db/schema/telephony";
import { DEFAULT_PERSONALITY, personalityIds } from "./personalities";
import { DEFAULT_VOICE, voiceIds } from "./voices";

export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 500;
export const INSTRUCTIONS_MAX = 4000;
export const GREETING_MAX = 500;

export const CALL_RULE_WHEN = ["emergency", "asks_for_person", "complaint", "after_hours"] as const;
/** What may interrupt the assistant on ConversationRelay (Twilio's `interruptible`); "speech" by default. */
export const RELAY_INTERRUPTIONS = ["speech", "any", "dtmf", "none"] as const satisfies readonly RelayInterruptions[];
export const CALL_RULE_ACTIONS = ["transfer", "take_message", "urgent_task", "book"] as const;

/** One of the owner's call-handling rules (issue 27): what the assistant does on an emergency, a request for a person, a complaint, after hours. */
export const callRuleInput = z
  .object({
    when: z.enum(CALL_RULE_WHEN, { error: `when must be one of: ${CALL_RULE_WHEN.join(", ")}` }),
    action: z.enum(CALL_RULE_ACTIONS, { error: `action must be one of: ${CALL_RULE_ACTIONS.join(", ")}` }),
    to: z
      .string({ error: "to must be a phone number" })
      .trim()
      .regex(/^\+[1-9]\d{7,14}$/, "to must be a phone number with + and the country code, like +14155550123")
      .optional(),
    person: z.string({ error: "person must be text" }).trim().min(1, "person must not be empty").max(100, "person must be at most 100 characters").optional(),
  })
  .strict();
export const callRulesInput = z.array(callRuleInput, { error: "callRules must be a list of rules" }).max(20, "At most 20 call rules");

/** Every field of an assistant as the create/edit form holds it (issue 3). */
const fields = {
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
  description: z
    .string({ error: "Description must be text" })
    .trim()
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
  personality: z.enum(personalityIds, { error: `Personality must be one of: ${personalityIds.join(", ")}` }),
  instructions: z
    .string({ error: "Instructions must be text" })
    .trim()
    .max(INSTRUCTIONS_MAX, `Instructions must be at most ${INSTRUCTIONS_MAX} characters`),
  voice: z.enum(voiceIds, { error: `Voice must be one of: ${voiceIds.join(", ")}` }),
  greeting: z
    .string({ error: "Greeting must be text" })
    .trim()
    .max(GREETING_MAX, `Greeting must be at most ${GREETING_MAX} characters`),
  isActive: z.boolean({ error: "isActive must be true or false" }),
  callRules: callRulesInput,
  /** ConversationRelay: what may interrupt the assistant while it speaks (Twilio's `interruptible`). */
  interruptions: z.enum(RELAY_INTERRUPTIONS, { error: `interruptions must be one of: ${RELAY_INTERRUPTIONS.join(", ")}` }),
  /** ConversationRelay: "uh-huh", "okay", "yeah" alone while the assistant speaks are ignored. */
  ignoreBackchannels: z.boolean({ error: "ignoreBackchannels must be true or false" }),
};


/**
 * POST /api/voice-assistants and the create/edit form. Only the name is required; the rest take
 * the spec's defaults (personality friendly, voice alloy, active).
 */
export const createAssistantInput = z.object({
  name: fields.name,
  description: fields.description.default(""),
  personality: fields.personality.default(DEFAULT_PERSONALITY),
  instructions: fields.instructions.default(""),
  voice: fields.voice.default(DEFAULT_VOICE),
  greeting: fields.greeting.default(""),
  isActive: fields.isActive.default(true),
});
export type CreateAssistantInput = z.output<typeof createAssistantInput>;
/** What the form holds before parsing (defaults not applied yet). */
export type AssistantFormValues = z.input<typeof createAssistantInput>;

/** PUT /api/voice-assistants/{id}: any subset of the fields; `{isActive}` alone toggles. */
export const updateAssistantInput = z
  .object(fields)
  .partial()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "Send at least one field to change",
    path: ["body"],
  });
export type UpdateAssistantInput = z.output<typeof updateAssistantInput>;
