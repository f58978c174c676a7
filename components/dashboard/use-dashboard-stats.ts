"use client";

import { useQuery } from "@tanstack/react-query";

export interface DashboardStats {
  totalCalls: number;
  activeAssistants: number;
  totalMessages: number;
  /** A display label computed by the server, e.g. "1.2s", or "—" when nothing is measured yet. */
  avgResponseTime: string;
}

export const DASHBOARD_STATS_QUERY_KEY = ["/api/dashboard/stats"] as const;

export function useDashboardStats() {
  return useQuery<DashboardStats>({ queryKey: DASHBOARD_STATS_QUERY_KEY });
}
