import type { Metadata } from "next";
import { CallHistoryScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Call History" };

export default function CallHistoryPage() {
  return <CallHistoryScreen />;
}
