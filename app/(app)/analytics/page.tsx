import type { Metadata } from "next";
import { AnalyticsScreen } from "@/components/reports/analytics/analytics-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Analytics Dashboard" };

/** Every signed-in member sees their organization; admins can switch to the whole platform (checked by the API). */
export default function AnalyticsPage() {
  return (
    <ServerData queries={pageQueries.analytics}>
      <AnalyticsScreen />
    </ServerData>
  );
}
