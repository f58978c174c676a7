"use client";

import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import type { PlanId } from "@/lib/workspace/billing/plans";
import { cn } from "@/lib/platform/utils";
import { creditMeaning } from "@/lib/workspace/billing/prices";

export type PublicPlan = {
  id: PlanId;
  name: string;
  price: number;
  creditsIncluded: number;
  features: string[];
  limits: { phoneNumbers: number; assistants: number };
};

export function formatCredits(credits: number): string {
  return credits < 0 ? "Unlimited credits" : `${credits.toLocaleString("en-US")} credits / month`;
}

/** The three plan cards (advanced spec §2): a radio group; choosing a card sets the tier. */
export function PlanPicker({
  plans,
  isLoading,
  value,
  onChange,
}: {
  plans: PublicPlan[] | undefined;
  isLoading: boolean;
  value: PlanId;
  onChange: (plan: PlanId) => void;
}) {
  if (isLoading || !plans) {
    return (
      <div className="flex flex-col gap-3" role="status" aria-busy="true" aria-label="Loading plans">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-32 w-full rounded-xl" />
        ))}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3">
    <p className="text-sm text-muted-foreground" data-testid="signup-credit-meaning">
      {creditMeaning()}
    </p>
    <div role="radiogroup" aria-label="Plan" className="flex flex-col gap-3" data-testid="signup-plans">
      {plans.map((plan) => {
        const selected = plan.id === value;
        return (
          <button
            key={plan.id}
            type="button"
            role="radio"
            aria-checked={selected}
            onClick={() => onChange(plan.id)}
            data-testid={`signup-plan-${plan.id}`}
            className={cn(
              "flex flex-col gap-3 rounded-xl border bg-card p-5 text-left transition-colors outline-none hover:border-primary/60 focus-visible:ring-2 focus-visible:ring-ring",
              selected ? "border-primary ring-1 ring-primary" : "border-border",
            )}
          >
            <div className="flex items-start justify-between gap-3">
              <div className="flex flex-col gap-1">
                <span className="flex items-center gap-2 text-lg font-semibold">
                  {plan.name}
                  {plan.id === "pro" ? <Badge>Most popular</Badge> : null}
                </span>
                <span className="text-sm text-muted-foreground">{formatCredits(plan.creditsIncluded)}</span>
              </div>
              <div className="text-right">
                <span className="text-2xl font-bold">${plan.price}</span>
                <span className="text-sm text-muted-foreground">/month</span>
              </div>
            </div>
            <ul className="grid gap-1.5 text-sm text-muted-foreground sm:grid-cols-2">
              {plan.features.map((feature) => (
                <li key={feature} className="flex items-start gap-2">
                  <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                  {feature}
                </li>
              ))}
            </ul>
            {selected ? <span className="sr-only">Selected</span> : null}
          </button>
        );
      })}
    </div>
    </div>
  );
}
