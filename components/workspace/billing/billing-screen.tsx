"use client";

import * as React from "react";
import { AlertTriangle, RotateCw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { HistoryTab } from "./history-tab";
import { PacksTab } from "./packs-tab";
import { PlansTab } from "./plans-tab";
import { SubscriptionCard } from "./subscription-card";
import { UsageCard } from "./usage-card";
import { useBillingOverview } from "./use-billing";

type BillingTab = "plans" | "credits" | "history";

/** The spec's alert threshold: at 75% of the period's credits used. */
export const USAGE_ALERT_PERCENT = 75;

/** Tab labels may wrap on phones (three equal columns) and stay on one line from sm up. */
const TAB_CLASS = "py-1.5 leading-tight whitespace-normal sm:whitespace-nowrap";

/** After Stripe Checkout the payer lands on /billing?checkout=…: say what happened once, then tidy the URL. */
function useCheckoutReturnToast() {
  React.useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const outcome = params.get("checkout");
    if (!outcome) return;
    if (outcome === "success" && params.get("kind") === "credit_pack") {
      toast.success("Credits Purchased", { description: `${Number(params.get("credits") ?? 0).toLocaleString("en-US")} credits were added to your balance.` });
    } else if (outcome === "success") {
      toast.success("Plan Updated", { description: "Your payment went through and your plan is active." });
    } else if (outcome === "pending") {
      toast.info("Payment processing", { description: "Stripe is still confirming your payment. Refresh this page in a moment to see it." });
    } else if (outcome === "cancelled") {
      toast.info("Checkout cancelled", { description: "Nothing was charged." });
    }
    window.history.replaceState(null, "", window.location.pathname);
  }, []);
}

/** /billing and /billing-management (advanced spec §2 Billing & Credits), every figure from the server. */
export function BillingScreen() {
  const overview = useBillingOverview();
  const [tab, setTab] = React.useState<BillingTab>("plans");
  useCheckoutReturnToast();

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="billing">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Billing & Credits</h1>
        <p className="text-muted-foreground">Your subscription, credit balance and payments.</p>
      </div>

      {overview.isError ? (
        <div role="alert" className="flex items-center justify-between gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm">
          <span>We couldn&apos;t load your billing details.</span>
          <Button size="sm" variant="outline" onClick={() => void overview.refetch()} disabled={overview.isRefetching}>
            <RotateCw aria-hidden className={overview.isRefetching ? "animate-spin" : undefined} />
            Try again
          </Button>
        </div>
      ) : null}

      {overview.isLoading || !overview.data ? (
        overview.isError ? null : (
          <div className="grid gap-6 md:grid-cols-2" role="status" aria-busy="true" aria-label="Loading billing">
            {[0, 1].map((i) => (
              <Card key={i}>
                <CardHeader className="gap-2">
                  <Skeleton className="h-6 w-48" />
                  <Skeleton className="h-4 w-32" />
                </CardHeader>
                <CardContent className="flex flex-col gap-2">
                  <Skeleton className="h-8 w-40" />
                  <Skeleton className="h-3 w-full" />
                </CardContent>
              </Card>
            ))}
          </div>
        )
      ) : (
        <>
          {overview.data.paymentsConfigured ? null : (
            <div
              role="status"
              data-testid="billing-payments-not-configured"
              className="flex items-start gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm"
            >
              <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
              <div className="flex flex-col gap-0.5">
                <span className="font-medium">Payments are not configured</span>
                <span className="text-muted-foreground">
                  This Switchboard server cannot take payments yet, so plans and credit packs cannot be bought. Your current plan and
                  credits keep working; please contact your administrator.
                </span>
              </div>
            </div>
          )}
          <div className="grid gap-6 md:grid-cols-2">
            <SubscriptionCard overview={overview.data} />
            <UsageCard overview={overview.data} />
          </div>

          <Tabs value={tab} onValueChange={(value) => setTab(value as BillingTab)}>
            <TabsList className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:w-fit">
              <TabsTrigger value="plans" className={TAB_CLASS}>Subscription Plans</TabsTrigger>
              <TabsTrigger value="credits" className={TAB_CLASS}>Purchase Credits</TabsTrigger>
              <TabsTrigger value="history" className={TAB_CLASS}>Billing History</TabsTrigger>
            </TabsList>
            <TabsContent value="plans">
              <PlansTab overview={overview.data} />
            </TabsContent>
            <TabsContent value="credits">
              <PacksTab overview={overview.data} />
            </TabsContent>
            <TabsContent value="history">
              <HistoryTab />
            </TabsContent>
          </Tabs>

          {!overview.data.unlimited && overview.data.usagePercent >= USAGE_ALERT_PERCENT ? (
            <div
              role="status"
              data-testid="billing-usage-alert"
              className="flex flex-col gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex items-start gap-3">
                <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
                <div className="flex flex-col gap-0.5">
                  <span className="font-medium">Credit Usage Alert</span>
                  <span className="text-sm text-muted-foreground">
                    You&apos;ve used {overview.data.usagePercent}% of this period&apos;s credits. Buy a credit pack or upgrade your plan so your
                    assistants keep answering.
                  </span>
                </div>
              </div>
              <Button size="sm" variant="outline" onClick={() => setTab("credits")}>
                Buy credits
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
