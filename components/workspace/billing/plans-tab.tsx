"use client";

import * as React from "react";
import { Check } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatCredits } from "@/components/workspace/billing/plan-picker";
import { cn } from "@/lib/platform/utils";
import { prorationCents } from "@/lib/workspace/billing/proration";
import { formatDollars } from "./format";
import { useChangePlan, usePlans, type BillingOverview, type PublicPlan } from "./use-billing";

function actionFor(plan: PublicPlan, overview: BillingOverview, current: PublicPlan | undefined) {
  if (plan.id === overview.plan.id) return overview.paymentNeeded ? "Complete payment" : overview.scheduledPlan ? "Keep" : "Current plan";
  if (overview.scheduledPlan?.id === plan.id) return "Scheduled";
  return current && plan.price < current.price ? "Downgrade" : "Upgrade";
}

/** A paid plan held now: an upgrade is prorated for the rest of the period, a downgrade waits for renewal. */
function midPeriod(overview: BillingOverview) {
  return overview.plan.price > 0 && overview.status === "active" && !overview.paymentNeeded;
}

/** What switching to a dearer plan now costs: Stripe's proration, computed the same way (lib/workspace/billing/proration.ts). */
export function upgradeNowSummary(plan: PublicPlan, overview: BillingOverview, testMode: boolean, now = new Date()): { title: string; description: string; confirmLabel: string } {
  const cents = prorationCents(overview.plan.price * 100, plan.price * 100, { start: new Date(overview.periodStart), end: new Date(overview.periodEnd) }, now);
  const amount = formatDollars(cents / 100);
  const renews = new Date(overview.periodEnd).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  const charge = testMode ? `Test mode: no card is charged (it would be about ${amount}).` : `About ${amount} is charged now to your card on file.`;
  return {
    title: `Upgrade to ${plan.name} now for about ${amount}?`,
    description: `${charge} That is the difference between the plans for the rest of this period, prorated. What changes: ${plan.features.join(", ")}. From ${renews} the plan renews at ${formatDollars(plan.price)} a month.`,
    confirmLabel: `Pay about ${amount} and upgrade`,
  };
}

/** What a paid plan costs, what changes and when it renews, said before any money moves. */
export function paidPlanSummary(plan: PublicPlan, testMode: boolean, today = new Date()): string {
  const renews = new Date(today);
  renews.setMonth(renews.getMonth() + 1);
  const date = renews.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  const charge = testMode ? "Test mode: no card is charged." : `You are charged ${formatDollars(plan.price)} now on Stripe's secure checkout page.`;
  return `${charge} What changes: ${plan.features.join(", ")}. The plan renews every month at ${formatDollars(plan.price)}, next on ${date}, until you cancel.`;
}

/** The confirmation's title and button for paying for `plan` (a change, or completing a pending payment). */
export function paidPlanConfirmText(action: string, plan: Pick<PublicPlan, "name" | "price">): { title: string; confirmLabel: string } {
  const price = formatDollars(plan.price);
  if (action === "Complete payment") return { title: `Complete payment: ${plan.name} for ${price}/month?`, confirmLabel: `Pay ${price} and activate` };
  return { title: `${action} to ${plan.name} for ${price}/month?`, confirmLabel: `Pay ${price} and switch` };
}

/** Subscription Plans tab: the current plan is the organization's real one. */
export function PlansTab({ overview }: { overview: BillingOverview }) {
  const plans = usePlans();
  const changePlan = useChangePlan();
  const [confirmFree, setConfirmFree] = React.useState(false);
  const [confirmPaid, setConfirmPaid] = React.useState<PublicPlan | null>(null);
  const [confirmDowngrade, setConfirmDowngrade] = React.useState<PublicPlan | null>(null);
  const current = plans.data?.find((p) => p.id === overview.plan.id);

  if (plans.isLoading || !plans.data) {
    return (
      <div className="grid gap-6 md:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-72 rounded-xl" />
        ))}
      </div>
    );
  }

  const renewal = new Date(overview.periodEnd).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  const choose = (plan: PublicPlan) => {
    const action = actionFor(plan, overview, current);
    if (action === "Keep") changePlan.mutate({ id: plan.id, name: plan.name });
    else if (action === "Downgrade" && midPeriod(overview)) setConfirmDowngrade(plan);
    else if (plan.id === "free") setConfirmFree(true);
    else setConfirmPaid(plan);
  };
  const paidText = (plan: PublicPlan) =>
    midPeriod(overview) && actionFor(plan, overview, current) === "Upgrade"
      ? upgradeNowSummary(plan, overview, overview.testMode)
      : { ...paidPlanConfirmText(actionFor(plan, overview, current), plan), description: paidPlanSummary(plan, overview.testMode) };

  return (
    <>
      {overview.scheduledPlan ? (
        <p role="status" className="mb-4 rounded-lg border border-border bg-muted/40 p-3 text-sm" data-testid="billing-scheduled-plan">
          Your plan changes to {overview.scheduledPlan.name} on {renewal}, at renewal, with no charge. Until then you keep {overview.plan.name}. Choose &quot;Keep {overview.plan.name}&quot; to stay.
        </p>
      ) : null}
      <div className="grid gap-6 md:grid-cols-3" data-testid="billing-plans">
        {plans.data.map((plan) => {
          const action = actionFor(plan, overview, current);
          const isCurrent = action === "Current plan";
          const pendingThis = changePlan.isPending && changePlan.variables?.id === plan.id;
          return (
            <Card key={plan.id} className={cn("flex flex-col", plan.id === overview.plan.id && "border-primary")} data-testid={`billing-plan-${plan.id}`}>
              <CardHeader>
                <div className="flex items-center justify-between gap-2">
                  <CardTitle className="text-lg">{plan.name}</CardTitle>
                  {plan.id === overview.plan.id ? <Badge>Your plan</Badge> : null}
                </div>
                <div>
                  <span className="text-3xl font-bold">{formatDollars(plan.price)}</span>
                  <span className="text-sm text-muted-foreground">/month</span>
                </div>
                <p className="text-sm text-muted-foreground">{formatCredits(plan.creditsIncluded)}</p>
              </CardHeader>
              <CardContent className="flex-1">
                <ul className="flex flex-col gap-2 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-2">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </CardContent>
              <CardFooter>
                <Button
                  className="w-full"
                  variant={action === "Downgrade" ? "outline" : "default"}
                  disabled={isCurrent || action === "Scheduled" || changePlan.isPending || (action === "Upgrade" && plan.price > 0 && !overview.paymentsConfigured)}
                  onClick={() => choose(plan)}
                  aria-label={isCurrent ? `Current plan: ${plan.name}` : action === "Keep" ? `Keep ${plan.name}` : action === "Scheduled" ? `${plan.name} from ${renewal}` : `${action}: ${plan.name}`}
                >
                  {pendingThis ? <Spinner /> : null}
                  {action === "Keep" ? `Keep ${plan.name}` : action === "Scheduled" ? `From ${renewal}` : action}
                </Button>
              </CardFooter>
            </Card>
          );
        })}
      </div>
      <ConfirmDialog
        open={confirmPaid !== null}
        onOpenChange={(open) => (open ? null : setConfirmPaid(null))}
        title={confirmPaid ? paidText(confirmPaid).title : ""}
        description={confirmPaid ? paidText(confirmPaid).description : ""}
        confirmLabel={confirmPaid ? paidText(confirmPaid).confirmLabel : "Confirm"}
        pending={changePlan.isPending}
        onConfirm={() => {
          if (confirmPaid) changePlan.mutate({ id: confirmPaid.id, name: confirmPaid.name });
          setConfirmPaid(null);
        }}
      />
      <ConfirmDialog
        open={confirmDowngrade !== null}
        onOpenChange={(open) => (open ? null : setConfirmDowngrade(null))}
        title={confirmDowngrade ? `Switch to ${confirmDowngrade.name} at renewal?` : ""}
        description={
          confirmDowngrade
            ? `Nothing is charged. You keep ${overview.plan.name} until ${renewal}; then ${confirmDowngrade.name} applies (${confirmDowngrade.features.join(", ")}). Your credits stay.`
            : ""
        }
        confirmLabel={`Switch on ${renewal}`}
        pending={changePlan.isPending}
        onConfirm={() => {
          if (confirmDowngrade) changePlan.mutate({ id: confirmDowngrade.id, name: confirmDowngrade.name });
          setConfirmDowngrade(null);
        }}
      />
      <ConfirmDialog
        open={confirmFree}
        onOpenChange={setConfirmFree}
        title="Switch to the Free plan?"
        description="The change applies now: Free's limits (1 phone number, 1 voice assistant) take effect and any paid subscription is cancelled. Your credits stay."
        confirmLabel="Switch to Free"
        pending={changePlan.isPending}
        onConfirm={() => changePlan.mutate({ id: "free", name: "Free" })}
      />
    </>
  );
}
