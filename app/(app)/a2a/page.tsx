import type { Metadata } from "next";
import { AdminOnly } from "@/components/consoles/admin/admin-only";
import { A2aScreen } from "@/components/agents/a2a/a2a-screen";

export const metadata: Metadata = { title: "A2A Management" };

export default function A2aPage() {
  return (
    <AdminOnly>
      <A2aScreen />
    </AdminOnly>
  );
}
