import { Activity } from "lucide-react";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { HealthProblems, useSystemHealth } from "@/components/reports/figures/system-health";
import { sentimentText } from "@/lib/reports/figures";
import { useDashboardFigures, type DashboardStats } from "./use-dashboard-stats";

const healthWords = { operational: "All parts answering", degraded: "Degraded", offline: "Offline", unknown: "Not checked yet" } as const;
const healthVariant = { operational: "success", degraded: "warning", offline: "destructive", unknown: "outline" } as const;

/**
 * The figures every screen defines the same way (lib/reports/figures): the platform's health with each
 * wanting part named and how to install it, uptime, caller sentiment and credits used over 30 days.
 * The footer's status line links here (#system-status).
 */
function FigureLines() {
  const health = useSystemHealth();
  const figures = useDashboardFigures();
  const h = health.data;
  const f = figures.data;
  return (
    <div className="mt-3 flex flex-col gap-3 border-t border-border pt-3" id="system-status" data-testid="dashboard-figures">
      <div className="flex items-center justify-between gap-4">
        <span className="text-sm text-muted-foreground">System status</span>
        <Badge variant={h ? healthVariant[h.status] : "outline"} data-testid="dashboard-health" data-status={h?.status}>
          {h ? healthWords[h.status] : "Checking…"}
        </Badge>
      </div>
      {h?.problems?.length ? <HealthProblems problems={h.problems} testId="dashboard-health-problems" /> : null}
      {h?.uptime ? (
        <div className="flex items-center justify-between gap-4">
          <span className="text-sm text-muted-foreground">Uptime, last {h.uptime.windowDays} days</span>
          <span className="text-sm font-medium tabular-nums" data-testid="dashboard-uptime">
            {h.uptime.percent === null ? "Not measured yet" : `${h.uptime.percent}%`}
          </span>
        </div>
      ) : null}
      {f ? (
        <>
          <div className="flex items-start justify-between gap-4">
            <span className="shrink-0 text-sm text-muted-foreground">Caller sentiment, {f.windowDays} days</span>
            <span className="text-right text-sm" data-testid="dashboard-sentiment">
              {sentimentText(f.sentiment)}
            </span>
          </div>
          <div className="flex items-center justify-between gap-4">
            <span className="text-sm text-muted-foreground">Credits used, {f.windowDays} days</span>
            <span className="text-sm font-medium tabular-nums" data-testid="dashboard-credits-used">
              {f.creditsUsed.toLocaleString("en-US")}
            </span>
          </div>
        </>
      ) : null}
    </div>
  );
}

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
        <FigureLines />
      </CardContent>
    </Card>
  );
}
