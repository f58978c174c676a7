import type { Metadata } from "next";
import { CallHistoryScreen } from "@/components/receptionist/call-history/call-history-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Call History" };

export default function CallHistoryPage() {
  return (
    <ServerData queries={pageQueries.callHistory}>
      <CallHistoryScreen />
    </ServerData>
  );
}
