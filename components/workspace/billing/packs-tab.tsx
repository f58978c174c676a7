"use client";

import * as React from "react";
import { Coins } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { formatDollars } from "./format";
import { usePurchaseCredits, type BillingOverview } from "./use-billing";

/** Purchase Credits tab: the four packs (advanced spec §9); the purchase sends credits + bonus. */
export function PacksTab({ overview }: { overview: BillingOverview }) {
  const purchase = usePurchaseCredits();
  const [confirm, setConfirm] = React.useState<BillingOverview["packs"][number] | null>(null);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4" data-testid="billing-packs">
        {overview.packs.map((pack) => {
          const pendingThis = purchase.isPending && purchase.variables === pack.total;
          return (
            <Card key={pack.credits} className="flex flex-col" data-testid={`billing-pack-${pack.credits}`}>
              <CardHeader>
                <CardTitle className="flex items-center gap-2 text-lg">
                  <Coins aria-hidden className="size-4 text-primary" />
                  {pack.credits.toLocaleString("en-US")} credits
                </CardTitle>
                <p className="text-sm font-medium text-success">+{pack.bonus.toLocaleString("en-US")} bonus</p>
              </CardHeader>
              <CardContent className="flex-1">
                <span className="text-3xl font-bold">{formatDollars(pack.price)}</span>
                <p className="mt-1 text-sm text-muted-foreground">{pack.total.toLocaleString("en-US")} credits in total</p>
              </CardContent>
              <CardFooter>
                <Button
                  className="w-full"
                  disabled={purchase.isPending || !overview.paymentsConfigured}
                  onClick={() => setConfirm(pack)}
                  aria-label={`Buy ${pack.credits.toLocaleString("en-US")} credits for ${formatDollars(pack.price)}`}
                >
                  {pendingThis ? <Spinner /> : null}
                  Buy
                </Button>
              </CardFooter>
            </Card>
          );
        })}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? null : setConfirm(null))}
        title={confirm ? `Buy ${confirm.total.toLocaleString("en-US")} credits for ${formatDollars(confirm.price)}?` : ""}
        description={
          confirm
            ? `${overview.testMode ? "Test mode: no card is charged." : `You are charged ${formatDollars(confirm.price)} once on Stripe's secure checkout page.`} Your balance goes from ${overview.balance.toLocaleString("en-US")} to ${(overview.balance + confirm.total).toLocaleString("en-US")} credits (${confirm.credits.toLocaleString("en-US")} + ${confirm.bonus.toLocaleString("en-US")} bonus). A one-time purchase: it does not renew, and credits never expire.`
            : ""
        }
        confirmLabel={confirm ? `Pay ${formatDollars(confirm.price)}` : "Confirm"}
        pending={purchase.isPending}
        onConfirm={() => {
          if (confirm) purchase.mutate(confirm.total);
          setConfirm(null);
        }}
      />
      <p className="text-sm text-muted-foreground">
        Credits never expire.{" "}
        {!overview.paymentsConfigured
          ? "Payments are not configured on this server."
          : overview.testMode
            ? "Test mode: purchases settle at once and no card is charged."
            : "You pay on Stripe's secure checkout page."}
      </p>
    </div>
  );
}
