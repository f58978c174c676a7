"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { CALL_RULE_ACTIONS, CALL_RULE_WHEN, callRulesInput } from "@/lib/agents/assistants/schema";
import { BusinessHoursSummary } from "@/components/knowledge/business/business-hours-summary";
import { useUpdateAssistant, type CallRuleView } from "./use-assistants";

const WHEN_LABELS: Record<(typeof CALL_RULE_WHEN)[number], string> = {
  emergency: "An emergency",
  asks_for_person: "The caller asks for a person",
  complaint: "A complaint",
  after_hours: "After hours",
};
const ACTION_LABELS: Record<(typeof CALL_RULE_ACTIONS)[number], string> = {
  transfer: "Transfer the call",
  take_message: "Take a message",
  urgent_task: "Make an urgent task",
  book: "Offer to book",
};

/**
 * The owner's call-handling rules (issue 27): structured choices the assistant follows — the
 * free-text instructions are for the language model and are never read to callers.
 */
export function CallRulesEditor({ assistantId, initial }: { assistantId: string; initial: CallRuleView[] }) {
  const [rules, setRules] = React.useState<CallRuleView[]>(initial);
  const [error, setError] = React.useState<string | null>(null);
  const update = useUpdateAssistant();
  const change = (i: number, patch: Partial<CallRuleView>) => setRules((list) => list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = () => {
    const cleaned = rules.map((r) => ({ when: r.when, action: r.action, ...(r.to?.trim() ? { to: r.to.trim() } : {}), ...(r.person?.trim() ? { person: r.person.trim() } : {}) }));
    const parsed = callRulesInput.safeParse(cleaned);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Check the rules");
      return;
    }
    setError(null);
    update.mutate({ id: assistantId, patch: { callRules: parsed.data } });
  };
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-border p-3" data-testid="call-rules-editor">
      <div className="flex flex-col gap-1">
        <Label>Call handling rules</Label>
        <p className="text-xs text-muted-foreground">What the assistant does, whatever the instructions say. A transfer with no number uses the number&apos;s forward-to; nobody answering leaves a message and an urgent task.</p>
      </div>
      <div className="rounded-md bg-muted/40 p-2 text-xs">
        <p className="font-medium">&ldquo;After hours&rdquo; means outside your business hours:</p>
        <BusinessHoursSummary />
      </div>
      {rules.map((rule, i) => (
        <div key={i} className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_1fr_1fr_auto]" data-testid="call-rule">
          <Select aria-label="When" value={rule.when} onChange={(e) => change(i, { when: e.target.value as CallRuleView["when"] })}>
            {CALL_RULE_WHEN.map((w) => (
              <option key={w} value={w}>
                {WHEN_LABELS[w]}
              </option>
            ))}
          </Select>
          <Select aria-label="Then" value={rule.action} onChange={(e) => change(i, { action: e.target.value as CallRuleView["action"] })}>
            {CALL_RULE_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]}
              </option>
            ))}
          </Select>
          {rule.action === "transfer" ? (
            <Input aria-label="Transfer to" placeholder="+14155550123 (optional)" value={rule.to ?? ""} onChange={(e) => change(i, { to: e.target.value })} />
          ) : rule.when === "asks_for_person" ? (
            <Input aria-label="Person" placeholder="Who (optional)" value={rule.person ?? ""} onChange={(e) => change(i, { person: e.target.value })} />
          ) : (
            <span />
          )}
          <Button type="button" variant="outline" onClick={() => setRules((list) => list.filter((_, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <FieldError id="call-rules-error" message={error ?? undefined} />
      <div className="flex gap-2">
        <Button type="button" variant="outline" onClick={() => setRules((list) => [...list, { when: "emergency", action: "transfer" }])}>
          Add a rule
        </Button>
        <Button type="button" onClick={save} disabled={update.isPending} data-testid="call-rules-save">
          {update.isPending ? <Spinner /> : null}
          Save rules
        </Button>
      </div>
    </section>
  );
}
