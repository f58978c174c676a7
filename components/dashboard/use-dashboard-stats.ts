"use client";

import { useQuery } from "@tanstack/react-query";
import type { DashboardStats } from "@/lib/dashboard/service";

// The figures are typed once, by the service that computes them (a type-only import).
export type { DashboardStats };

export const DASHBOARD_STATS_QUERY_KEY = ["/api/dashboard/stats"] as const;

export function useDashboardStats() {
  return useQuery<DashboardStats>({ queryKey: DASHBOARD_STATS_QUERY_KEY });
}
