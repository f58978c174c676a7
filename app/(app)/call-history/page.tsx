import type { Metadata } from "next";
import { CallHistoryScreen } from "@/components/call-history/call-history-screen";
import { ServerData } from "@/components/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Call History" };

export default function CallHistoryPage() {
  return (
    <ServerData queries={pageQueries.callHistory}>
      <CallHistoryScreen />
    </ServerData>
  );
}
