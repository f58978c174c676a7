import type { LucideIcon } from "lucide-react";
import { Bot, Clock, MessageSquare, PhoneCall } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { DashboardStats } from "./use-dashboard-stats";

const numberFormat = new Intl.NumberFormat("en-US");

const cards: {
  key: keyof DashboardStats;
  label: string;
  icon: LucideIcon;
  testId: string;
}[] = [
  { key: "totalCalls", label: "Total Calls", icon: PhoneCall, testId: "stat-total-calls" },
  { key: "activeAssistants", label: "Active Assistants", icon: Bot, testId: "stat-active-assistants" },
  { key: "totalMessages", label: "Messages Processed", icon: MessageSquare, testId: "stat-messages-processed" },
  { key: "avgResponseTime", label: "Avg Response Time", icon: Clock, testId: "stat-avg-response-time" },
];

function formatValue(value: DashboardStats[keyof DashboardStats]): string {
  // The response-time label arrives formatted by the server and is shown as is.
  return typeof value === "number" ? numberFormat.format(value) : value;
}

export function StatCards({ stats, isLoading }: { stats: DashboardStats | undefined; isLoading: boolean }) {
  return (
    <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {cards.map(({ key, label, icon: Icon, testId }) => (
        <Card key={key} data-testid={testId}>
          <CardContent className="flex items-start justify-between gap-4 p-5">
            <div className="flex min-w-0 flex-col gap-2">
              <p className="text-sm font-medium text-muted-foreground">{label}</p>
              {isLoading ? (
                <Skeleton className="h-8 w-20" />
              ) : (
                <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`${testId}-value`}>
                  {stats ? formatValue(stats[key]) : "—"}
                </p>
              )}
            </div>
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden />
            </span>
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
