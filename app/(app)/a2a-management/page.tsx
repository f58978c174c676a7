import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { A2aScreen } from "@/components/a2a/a2a-screen";

export const metadata: Metadata = { title: "A2A Management" };

export default function A2aManagementPage() {
  return (
    <AdminOnly>
      <A2aScreen />
    </AdminOnly>
  );
}
