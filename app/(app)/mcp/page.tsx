import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { McpScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "MCP Management" };

export default function McpPage() {
  return (
    <AdminOnly>
      <McpScreen />
    </AdminOnly>
  );
}
