"use client";

import Link from "next/link";
import { Coins } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useBillingOverview } from "@/components/workspace/billing/use-billing";
import { cn } from "@/lib/platform/utils";

/** Credit balance and this period's use against the plan's allowance, from GET /api/billing/overview. */
export function CreditsCard() {
  const { data, isLoading } = useBillingOverview();
  const percent = data ? Math.min(100, Math.max(0, data.usagePercent)) : 0;
  return (
    <Card data-testid="dashboard-credits">
      <CardHeader className="flex flex-row items-center justify-between gap-4 pb-2">
        <CardTitle as="h2" className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
          <Coins className="size-4" aria-hidden />
          Credits
        </CardTitle>
        <Link href="/billing" className="text-sm font-medium text-primary underline underline-offset-4">
          Billing & Credits
        </Link>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {isLoading || !data ? (
          <Skeleton className="h-8 w-32" />
        ) : (
          <>
            <p className="text-2xl font-semibold tabular-nums" data-testid="dashboard-credit-balance">
              {data.balance.toLocaleString("en-US")} <span className="text-sm font-normal text-muted-foreground">credits left</span>
            </p>
            {data.unlimited ? (
              <p className="text-xs text-muted-foreground">Unlimited credits on {data.plan.name}.</p>
            ) : (
              <>
                <div
                  role="progressbar"
                  aria-label="Credits used this period"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="h-2 w-full overflow-hidden rounded-full bg-muted"
                >
                  <div className={cn("h-full rounded-full", percent >= 75 ? "bg-warning" : "bg-primary")} style={{ width: `${percent}%` }} />
                </div>
                <p className="text-xs text-muted-foreground" data-testid="dashboard-credit-usage">
                  {data.usedThisPeriod.toLocaleString("en-US")} of {data.includedThisPeriod.toLocaleString("en-US")} included credits used this period ({percent}%)
                </p>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
