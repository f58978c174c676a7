"use client";

import { useQuery } from "@tanstack/react-query";
import type { DashboardFigures, DashboardStats } from "@/lib/reports/dashboard/service";

// The figures are typed once, by the service that computes them (a type-only import).
export type { DashboardStats };

export const DASHBOARD_STATS_QUERY_KEY = ["/api/dashboard/stats"] as const;

export function useDashboardStats() {
  return useQuery<DashboardStats>({ queryKey: DASHBOARD_STATS_QUERY_KEY });
}

export const DASHBOARD_FIGURES_QUERY_KEY = ["/api/dashboard/figures"] as const;

/** Sentiment and credits used over the last 30 days, by lib/reports/figures (the same as Analytics and CRM Voice). */
export function useDashboardFigures() {
  return useQuery<DashboardFigures>({ queryKey: DASHBOARD_FIGURES_QUERY_KEY, refetchInterval: 60_000, staleTime: 30_000 });
}
