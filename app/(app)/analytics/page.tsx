import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { AnalyticsScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Analytics Dashboard" };

export default function AnalyticsPage() {
  return (
    <AdminOnly>
      <AnalyticsScreen />
    </AdminOnly>
  );
}
