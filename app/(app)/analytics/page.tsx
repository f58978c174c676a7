import type { Metadata } from "next";
import { AnalyticsScreen } from "@/components/analytics/analytics-screen";

export const metadata: Metadata = { title: "Analytics Dashboard" };

/** Every signed-in member sees their organization; admins can switch to the whole platform (checked by the API). */
export default function AnalyticsPage() {
  return <AnalyticsScreen />;
}
