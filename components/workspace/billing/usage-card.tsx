import { Gauge } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/platform/utils";
import { formatDate } from "./format";
import type { BillingOverview } from "./use-billing";

/** Credit usage this period, from the ledger (GET /api/billing/overview). */
export function UsageCard({ overview }: { overview: BillingOverview }) {
  const percent = Math.min(100, Math.max(0, overview.usagePercent));
  return (
    <Card data-testid="billing-usage">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gauge aria-hidden className="size-4 text-primary" />
          Credit Usage
        </CardTitle>
        <CardDescription>
          This period: {formatDate(overview.periodStart)} – {formatDate(overview.periodEnd)}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-2 gap-4">
          <div>
            <dt className="text-sm text-muted-foreground">Used this period</dt>
            <dd className="text-2xl font-semibold" data-testid="billing-used">
              {overview.usedThisPeriod.toLocaleString("en-US")}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Balance</dt>
            <dd className="text-2xl font-semibold" data-testid="billing-balance">
              {overview.unlimited ? "Unlimited" : overview.balance.toLocaleString("en-US")}
            </dd>
          </div>
        </dl>
        <p className="text-sm text-muted-foreground" data-testid="billing-credit-meaning">
          {overview.creditMeaning}
        </p>
        <div>
          <h3 className="mb-2 text-sm font-medium">Used by kind</h3>
          <ul className="flex flex-col gap-1 text-sm" data-testid="billing-usage-by-kind">
            {overview.usageByKind.map((row) => (
              <li key={row.kind} className="flex justify-between gap-4">
                <span className="text-muted-foreground">{row.label}</span>
                <span className="font-medium tabular-nums">{row.credits.toLocaleString("en-US")}</span>
              </li>
            ))}
          </ul>
        </div>
        {overview.unlimited ? (
          <p className="text-sm text-muted-foreground">Enterprise usage is recorded but never lowers your balance.</p>
        ) : (
          <div className="flex flex-col gap-1.5">
            <div
              role="progressbar"
              aria-label="Credits used this period"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-full overflow-hidden rounded-full bg-muted"
            >
              <div
                className={cn("h-full rounded-full transition-all", percent >= 75 ? "bg-warning" : "bg-primary")}
                style={{ width: `${percent}%` }}
              />
            </div>
            <p className="text-xs text-muted-foreground" data-testid="billing-usage-percent">
              {percent}% of this period&apos;s credits used ({overview.usedThisPeriod.toLocaleString("en-US")} of the plan&apos;s{" "}
              {overview.includedThisPeriod.toLocaleString("en-US")} included) · balance {overview.balance.toLocaleString("en-US")} · credits never expire
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
