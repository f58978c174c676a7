"use client";

import type { LucideIcon } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** One figure with its label and a line under it (growth, a definition, or why there is no figure). */
export function StatCard({ label, value, note, icon: Icon, testId, loading }: { label: string; value: string; note?: string; icon: LucideIcon; testId: string; loading?: boolean }) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex items-start justify-between gap-4 p-5">
        <div className="flex min-w-0 flex-col gap-2">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          {loading ? (
            <Skeleton className="h-8 w-20" />
          ) : (
            <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`${testId}-value`}>
              {value}
            </p>
          )}
          {note ? (
            <p className="text-xs text-muted-foreground" data-testid={`${testId}-note`}>
              {note}
            </p>
          ) : null}
        </div>
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </span>
      </CardContent>
    </Card>
  );
}

/** Chart colours from the theme's chart palette. */
export const chartColors = ["#6366f1", "#22c55e", "#f59e0b", "#ef4444", "#06b6d4", "#a855f7"];
