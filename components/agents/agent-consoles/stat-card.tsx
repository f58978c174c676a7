import type { LucideIcon } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** One figure of a console's header row (MCP and A2A Management). */
export function StatCard({
  label,
  value,
  hint,
  icon: Icon,
  loading,
  testId,
}: {
  label: string;
  value: number | undefined;
  hint?: string;
  icon: LucideIcon;
  loading: boolean;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex items-start justify-between gap-4 p-5">
        <div className="flex min-w-0 flex-col gap-2">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          {loading ? (
            <Skeleton className="h-8 w-16" />
          ) : (
            <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`${testId}-value`}>
              {value ?? "—"}
            </p>
          )}
          {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
        </div>
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </span>
      </CardContent>
    </Card>
  );
}

/** A centred message for an empty list or a loading state, with the spec's exact text. */
export function EmptyState({ text, testId, children }: { text: string; testId: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed px-6 py-12 text-center" data-testid={testId}>
      <p className="text-sm text-muted-foreground">{text}</p>
      {children}
    </div>
  );
}
