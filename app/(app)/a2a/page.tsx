import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { A2aScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "A2A Management" };

export default function A2aPage() {
  return (
    <AdminOnly>
      <A2aScreen />
    </AdminOnly>
  );
}
