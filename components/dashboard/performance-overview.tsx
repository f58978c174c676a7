import { Activity } from "lucide-react";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { DashboardStats } from "./use-dashboard-stats";

type Status = { label: string; value: string; variant: NonNullable<BadgeProps["variant"]> };

/** Status lines derived from the live stats; nothing here is a typed-in figure. */
function statusesFrom(stats: DashboardStats): Status[] {
  const measured = stats.avgResponseTime.trim() !== "" && stats.avgResponseTime !== "—";
  return [
    stats.activeAssistants > 0
      ? { label: "Call handling", value: "Active", variant: "success" }
      : { label: "Call handling", value: "Needs an assistant", variant: "warning" },
    stats.totalCalls > 0
      ? { label: "Incoming calls", value: "Receiving calls", variant: "success" }
      : { label: "Incoming calls", value: "No calls yet", variant: "outline" },
    stats.totalMessages > 0
      ? { label: "Messaging", value: "Processing messages", variant: "success" }
      : { label: "Messaging", value: "No messages yet", variant: "outline" },
    measured
      ? { label: "Response time", value: `Averaging ${stats.avgResponseTime}`, variant: "default" }
      : { label: "Response time", value: "Not measured yet", variant: "outline" },
  ];
}

export function PerformanceOverview({
  stats,
  isLoading,
  isError,
}: {
  stats: DashboardStats | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <Activity className="size-4 text-primary" aria-hidden />
          Performance Overview
        </CardTitle>
        <CardDescription>How your phone desk is doing right now.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex flex-col gap-3">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-6 w-full" />
            ))}
          </div>
        ) : isError || !stats ? (
          <p className="text-sm text-muted-foreground">Status is unavailable until the figures load.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border" data-testid="performance-overview">
            {statusesFrom(stats).map((status) => (
              <li key={status.label} className="flex items-center justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
                <span className="text-sm text-muted-foreground">{status.label}</span>
                <Badge variant={status.variant}>{status.value}</Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
