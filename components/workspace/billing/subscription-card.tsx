"use client";

import * as React from "react";
import { CreditCard, ExternalLink, FlaskConical } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { formatDate, formatDollars } from "./format";
import { paidPlanConfirmText, paidPlanSummary } from "./plans-tab";
import { useChangePlan, useCustomerPortal, usePlans, type BillingOverview } from "./use-billing";

export function StatusBadge({ status, paymentNeeded }: { status: string; paymentNeeded: boolean }) {
  if (paymentNeeded && status === "trialing") return <Badge variant="warning">Trialing — payment needed</Badge>;
  if (status === "active") return <Badge variant="success">Active</Badge>;
  if (status === "past_due") return <Badge variant="warning">Past due</Badge>;
  return <Badge variant="destructive">{status.charAt(0).toUpperCase() + status.slice(1).replace("_", " ")}</Badge>;
}

/** Current subscription (advanced spec §2): the real plan, its status and renewal, from the overview. */
export function SubscriptionCard({ overview }: { overview: BillingOverview }) {
  const changePlan = useChangePlan();
  const portal = useCustomerPortal();
  const plans = usePlans();
  const [confirming, setConfirming] = React.useState(false);
  const { plan } = overview;
  // Money moves only after a confirmation with the amount, what changes and the renewal (as on the plans tab).
  const publicPlan = plans.data?.find((p) => p.id === plan.id);
  const confirmText = paidPlanConfirmText("Complete payment", plan);
  return (
    <Card data-testid="billing-subscription">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            <CreditCard aria-hidden className="size-4 text-primary" />
            Current Subscription
          </CardTitle>
          {overview.testMode ? (
            <Badge variant="outline" title="Payments settle at once with the simulated processor; no card is charged.">
              <FlaskConical aria-hidden />
              Test mode
            </Badge>
          ) : null}
        </div>
        <CardDescription>Your plan and when it renews.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline gap-3">
          <span className="text-2xl font-semibold" data-testid="billing-plan-name">
            {plan.name} Plan
          </span>
          <span className="text-muted-foreground">{formatDollars(plan.price)}/month</span>
          <StatusBadge status={overview.status} paymentNeeded={overview.paymentNeeded} />
        </div>
        <p className="text-sm text-muted-foreground">
          {overview.paymentNeeded
            ? `Until the first payment, the ${overview.effectivePlan.name} plan's limits apply (${overview.effectivePlan.limits.phoneNumbers} phone number, ${overview.effectivePlan.limits.assistants} assistant).`
            : overview.renewalDate
              ? `Renews on ${formatDate(overview.renewalDate)}.`
              : "The Free plan does not renew or charge."}
        </p>
      </CardContent>
      {overview.paymentNeeded || (!overview.testMode && overview.canManageInStripe) ? (
        <CardFooter className="flex flex-wrap gap-2">
          {overview.paymentNeeded ? (
            <Button
              onClick={() => setConfirming(true)}
              disabled={changePlan.isPending || !overview.paymentsConfigured || !publicPlan}
              data-testid="billing-complete-payment"
            >
              {changePlan.isPending ? <Spinner /> : null}
              Complete payment
            </Button>
          ) : null}
          {!overview.testMode && overview.canManageInStripe ? (
            <Button variant="outline" onClick={() => portal.mutate()} disabled={portal.isPending}>
              <ExternalLink aria-hidden />
              Manage billing
            </Button>
          ) : null}
        </CardFooter>
      ) : null}
      {overview.paymentNeeded ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={confirmText.title}
          description={publicPlan ? paidPlanSummary(publicPlan, overview.testMode) : ""}
          confirmLabel={confirmText.confirmLabel}
          pending={changePlan.isPending}
          onConfirm={() => {
            changePlan.mutate({ id: plan.id, name: plan.name });
            setConfirming(false);
          }}
        />
      ) : null}
    </Card>
  );
}
