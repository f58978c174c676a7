"use client";

import { useQuery } from "@tanstack/react-query";
import type { HealthProblem } from "@/lib/reports/figures";
import type { SystemHealth } from "@/lib/reports/figures/service";

export const SYSTEM_HEALTH_KEY = ["/api/status"] as const;

/** What GET /api/status answers: the state for everyone, the named parts and uptime for a signed-in caller. */
export type StatusAnswer = Pick<SystemHealth, "status" | "checkedAt"> & Partial<Pick<SystemHealth, "headline" | "problems" | "uptime">>;

/** The platform's health (lib/reports/figures), polled every minute; shared by the footer and the dashboard. */
export function useSystemHealth(enabled = true) {
  return useQuery<StatusAnswer>({ queryKey: SYSTEM_HEALTH_KEY, refetchInterval: 60_000, staleTime: 30_000, enabled });
}

/** Each degraded or offline part, named, with how to install it behind a disclosure. */
export function HealthProblems({ problems, testId = "health-problems" }: { problems: HealthProblem[]; testId?: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid={testId}>
      {problems.map((p) => (
        <li key={p.component}>
          {p.name[0].toUpperCase() + p.name.slice(1)} {p.problem}
          {p.howTo ? (
            <details className="text-muted-foreground">
              <summary className="cursor-pointer underline underline-offset-2">How to install</summary>
              <span className="block">{p.howTo}</span>
            </details>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
