import type { Metadata } from "next";
import { Dashboard } from "@/components/consoles/dashboard/dashboard";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Dashboard" };

/** Rendered on the server with the figures in the first HTML (components/shell/app-shell/server-data.tsx). */
export default function DashboardPage() {
  return (
    <ServerData queries={pageQueries.dashboard}>
      <Dashboard />
    </ServerData>
  );
}
