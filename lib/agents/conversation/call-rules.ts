/**
 * The owner's call-handling rules (an assistant's `callRules`): structured choices the engine and
 * the model obey, instead of prose read aloud. Read and written with GET/PUT /api/voice-assistants/{id}.
 */
import { DEFAULT_CALL_RULES, type CallRule } from "@/db/schema";

export { CALL_RULE_ACTIONS, CALL_RULE_WHEN, callRuleInput, callRulesInput } from "@/lib/agents/assistants/schema";

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
