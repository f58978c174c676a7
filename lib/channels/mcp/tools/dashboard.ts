import "server-only";
import { z } from "zod";
import { getDashboardStats } from "@/lib/reports/dashboard/service";
import { defineTool } from "./define";

export const dashboardStatsTool = defineTool({
  name: "get_dashboard_stats",
  title: "Dashboard stats",
  description: "The organization's totals: calls, text messages, active voice assistants, and the assistant's average response time.",
  scope: "dashboard:read",
  readOnly: true,
  input: z.object({}),
  async run(_args, { db, organizationId }) {
    return { ...(await getDashboardStats(db, organizationId)) };
  },
});
