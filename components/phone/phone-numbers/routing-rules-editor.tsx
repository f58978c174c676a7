"use client";

import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { routingActions, routingConditions, routingIntents, type RoutingAction, type RoutingCondition, type RoutingIntent } from "@/lib/phone/routing/constants";

/** One rule as the form holds it: VIP/blocked numbers as text, one per line or comma-separated. */
export type RuleDraft = { condition: RoutingCondition; action: RoutingAction; to: string; numbers: string; intent: RoutingIntent };

export const CONDITION_LABELS: Record<RoutingCondition, string> = {
  vip: "VIP caller",
  blocked: "Blocked caller",
  after_hours: "After hours",
  holiday: "Holiday",
  intent: "Caller asks about",
  always: "Every call",
};

const ACTION_LABELS: Record<RoutingAction, string> = {
  assistant: "The assistant answers",
  forward: "Forward to a number",
  voicemail: "Voicemail",
  reject: "Reject",
};

const INTENT_LABELS: Record<RoutingIntent, string> = { sales: "Sales", support: "Support", billing: "Billing" };

export function newRule(): RuleDraft {
  return { condition: "after_hours", action: "voicemail", to: "", numbers: "", intent: "sales" };
}

export function ruleToBody(rule: RuleDraft) {
  const numbers = rule.numbers
    .split(/[\s,;]+/)
    .map((n) => n.trim())
    .filter(Boolean);
  return {
    condition: rule.condition,
    action: rule.action,
    ...(rule.action === "forward" ? { to: rule.to.trim() || null } : {}),
    ...(rule.condition === "vip" || rule.condition === "blocked" ? { numbers } : {}),
    ...(rule.condition === "intent" ? { intent: rule.intent } : {}),
  };
}

/** The ordered rules of a number: the first that matches a call decides where it goes. */
export function RoutingRulesEditor({ rules, onChange, errors }: { rules: RuleDraft[]; onChange: (rules: RuleDraft[]) => void; errors: Record<string, string> }) {
  const set = (i: number, patch: Partial<RuleDraft>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) => {
    const next = [...rules];
    const [rule] = next.splice(i, 1);
    next.splice(i + by, 0, rule);
    onChange(next);
  };
  return (
    <div className="flex flex-col gap-3" data-testid="routing-rules">
      {rules.length === 0 ? <p className="text-sm text-muted-foreground">No rules: every call follows the mode above.</p> : null}
      <ol className="flex flex-col gap-3">
        {rules.map((rule, i) => {
          const err = (field: string) => errors[`routing.rules.${i}.${field}`];
          return (
            <li key={i} className="flex flex-col gap-2 rounded-md border border-border p-3" data-testid={`routing-rule-${i}`}>
              <div className="flex flex-wrap items-end gap-2">
                <span className="pb-2 text-sm font-medium text-muted-foreground">{i + 1}.</span>
                <div className="flex min-w-40 flex-1 flex-col gap-1">
                  <Label htmlFor={`rule-${i}-condition`} className="text-xs">
                    When
                  </Label>
                  <Select id={`rule-${i}-condition`} value={rule.condition} onChange={(e) => set(i, { condition: e.target.value as RoutingCondition })} data-testid={`rule-${i}-condition`}>
                    {routingConditions.map((c) => (
                      <option key={c} value={c}>
                        {CONDITION_LABELS[c]}
                      </option>
                    ))}
                  </Select>
                </div>
                {rule.condition === "intent" ? (
                  <div className="flex min-w-28 flex-col gap-1">
                    <Label htmlFor={`rule-${i}-intent`} className="text-xs">
                      Topic
                    </Label>
                    <Select id={`rule-${i}-intent`} value={rule.intent} onChange={(e) => set(i, { intent: e.target.value as RoutingIntent })}>
                      {routingIntents.map((x) => (
                        <option key={x} value={x}>
                          {INTENT_LABELS[x]}
                        </option>
                      ))}
                    </Select>
                  </div>
                ) : null}
                <div className="flex min-w-40 flex-1 flex-col gap-1">
                  <Label htmlFor={`rule-${i}-action`} className="text-xs">
                    Then
                  </Label>
                  <Select id={`rule-${i}-action`} value={rule.action} onChange={(e) => set(i, { action: e.target.value as RoutingAction })} data-testid={`rule-${i}-action`}>
                    {routingActions
                      .filter((a) => rule.condition !== "intent" || a !== "reject")
                      .map((a) => (
                        <option key={a} value={a}>
                          {ACTION_LABELS[a]}
                        </option>
                      ))}
                  </Select>
                </div>
                <div className="flex gap-1">
                  <Button type="button" variant="ghost" size="icon" aria-label={`Move rule ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    <ArrowUp aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" aria-label={`Move rule ${i + 1} down`} disabled={i === rules.length - 1} onClick={() => move(i, 1)}>
                    <ArrowDown aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </div>
              {rule.condition === "vip" || rule.condition === "blocked" ? (
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`rule-${i}-numbers`} className="text-xs">
                    Callers&apos; numbers, with + and the country code, separated by commas
                  </Label>
                  <Input
                    id={`rule-${i}-numbers`}
                    value={rule.numbers}
                    placeholder="+14155550123, +14155550199"
                    onChange={(e) => set(i, { numbers: e.target.value })}
                    aria-invalid={err("numbers") ? true : undefined}
                    data-testid={`rule-${i}-numbers`}
                  />
                  <FieldError id={`rule-${i}-numbers-error`} message={err("numbers") ?? Object.entries(errors).find(([k]) => k.startsWith(`routing.rules.${i}.numbers.`))?.[1]} />
                </div>
              ) : null}
              {rule.action === "forward" ? (
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`rule-${i}-to`} className="text-xs">
                    Forward to
                  </Label>
                  <Input
                    id={`rule-${i}-to`}
                    type="tel"
                    value={rule.to}
                    placeholder="+14155550123"
                    onChange={(e) => set(i, { to: e.target.value })}
                    aria-invalid={err("to") ? true : undefined}
                    data-testid={`rule-${i}-to`}
                  />
                  <FieldError id={`rule-${i}-to-error`} message={err("to")} />
                </div>
              ) : null}
              <FieldError id={`rule-${i}-error`} message={err("intent") ?? err("action") ?? err("condition")} />
            </li>
          );
        })}
      </ol>
      <Button type="button" variant="outline" size="sm" className="self-start" onClick={() => onChange([...rules, newRule()])} data-testid="routing-add-rule">
        <Plus aria-hidden /> Add rule
      </Button>
    </div>
  );
}
