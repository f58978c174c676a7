/**
 * The owner's call-handling rules (an assistant's `callRules`): structured choices the engine and
 * the model obey, instead of prose read aloud. Read and written with GET/PUT /api/voice-assistants/{id}.
 */
import { z } from "zod";
import { DEFAULT_CALL_RULES, type CallRule } from "@/db/schema";

export const CALL_RULE_WHEN = ["emergency", "asks_for_person", "complaint", "after_hours"] as const;
export const CALL_RULE_ACTIONS = ["transfer", "take_message", "urgent_task", "book"] as const;

const e164 = z.string().trim().regex(/^\+[1-9]\d{7,14}$/, "to must be a phone number in E.164 form, like +14155550123");

export const callRuleInput = z
  .object({
    when: z.enum(CALL_RULE_WHEN, { message: `when must be one of ${CALL_RULE_WHEN.join(", ")}` }),
    action: z.enum(CALL_RULE_ACTIONS, { message: `action must be one of ${CALL_RULE_ACTIONS.join(", ")}` }),
    to: e164.optional(),
    person: z.string().trim().min(1).max(100).optional(),
  })
  .strict();

export const callRulesInput = z.array(callRuleInput).max(20, "At most 20 call rules");

export { DEFAULT_CALL_RULES, type CallRule };

/** The first rule for this kind of call (for a named person: their own rule before a general one). */
export function ruleFor(rules: CallRule[] | null | undefined, when: CallRule["when"], person?: string | null): CallRule | null {
  const list = (rules ?? []).filter((r) => r.when === when);
  if (when === "asks_for_person" && person) {
    const own = list.find((r) => r.person && r.person.toLowerCase() === person.toLowerCase());
    if (own) return own;
    return list.find((r) => !r.person) ?? null;
  }
  return list.find((r) => !r.person) ?? list[0] ?? null;
}
