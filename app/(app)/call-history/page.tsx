import type { Metadata } from "next";
import { CallHistoryScreen } from "@/components/call-history/call-history-screen";

export const metadata: Metadata = { title: "Call History" };

export default function CallHistoryPage() {
  return <CallHistoryScreen />;
}
