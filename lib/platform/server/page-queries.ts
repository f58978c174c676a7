import "server-only";
import { GET as adminSystemStats } from "@/app/api/admin/system-stats/route";
import { GET as adminUsers } from "@/app/api/admin/users/route";
import { GET as analytics } from "@/app/api/analytics/route";
import { GET as analyticsReports } from "@/app/api/analytics/reports/route";
import { GET as billingOverview } from "@/app/api/billing/overview/route";
import { GET as businessProfile } from "@/app/api/business-profile/route";
import { GET as callHistory } from "@/app/api/call-history/route";
import { GET as dashboardStats } from "@/app/api/dashboard/stats/route";
import { GET as dashboardFigures } from "@/app/api/dashboard/figures/route";
import { GET as systemStatus } from "@/app/api/status/route";
import { GET as knowledgeGaps } from "@/app/api/knowledge-gaps/route";
import { GET as setupChecklist } from "@/app/api/onboarding/checklist/route";
import { GET as phoneNumbers } from "@/app/api/phone-numbers/route";
import { GET as voiceAssistants } from "@/app/api/voice-assistants/route";
import { GET as assistantOptions } from "@/app/api/voice-assistants/options/route";
import type { ServerQuery } from "./prefetch";

/**
 * What each signed-in page's client components ask first, answered on the server
 * (components/shell/app-shell/server-data.tsx). The keys are the client components' own query keys,
 * written out here because a server component cannot read a constant from a "use client" module;
 * a key that drifts only means that query is fetched by the browser again, as before
 * (tests/e2e/server-render.spec.ts checks the pages' first HTML).
 */
export const pageQueries = {
  // components/consoles/dashboard: stats, setup checklist, credits card (billing overview), knowledge card.
  dashboard: [
    { queryKey: ["/api/dashboard/stats"], get: dashboardStats },
    { queryKey: ["/api/dashboard/figures"], get: dashboardFigures },
    { queryKey: ["/api/status"], get: systemStatus },
    { queryKey: ["/api/onboarding/checklist"], get: setupChecklist },
    { queryKey: ["/api/billing/overview"], get: billingOverview },
    { queryKey: ["/api/business-profile"], get: businessProfile },
    { queryKey: ["/api/knowledge-gaps?status=open"], get: knowledgeGaps },
  ],
  // components/knowledge/business/use-business.ts
  business: [
    { queryKey: ["/api/business-profile"], get: businessProfile },
    { queryKey: ["/api/knowledge-gaps?status=open"], get: knowledgeGaps },
  ],
  // components/receptionist/call-history/call-history-screen.tsx: no filters, first page of 25.
  callHistory: [{ queryKey: ["/api/call-history", ""], url: "/api/call-history?limit=25", get: callHistory, infinite: true }],
  // components/reports/analytics/analytics-screen.tsx: the default range (7d) and scope (organization).
  analytics: [
    { queryKey: ["/api/analytics?range=7d&scope=organization"], get: analytics },
    { queryKey: ["/api/analytics/reports"], get: analyticsReports },
  ],
  // components/consoles/master-admin/master-admin-screen.tsx and the default tab (components/consoles/admin/users-tab.tsx).
  masterAdmin: [
    { queryKey: ["/api/admin/system-stats"], get: adminSystemStats },
    { queryKey: ["/api/admin/users", "", "all"], url: "/api/admin/users?limit=25", get: adminUsers, infinite: true },
  ],
  // components/phone/phone-numbers/use-phone-numbers.ts
  phoneNumbers: [{ queryKey: ["/api/phone-numbers"], get: phoneNumbers }],
  // components/agents/assistants/use-assistants.ts
  assistants: [
    { queryKey: ["/api/voice-assistants"], get: voiceAssistants },
    { queryKey: ["/api/voice-assistants/options"], get: assistantOptions },
  ],
} satisfies Record<string, ServerQuery[]>;
