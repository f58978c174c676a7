import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { McpScreen } from "@/components/mcp/mcp-screen";

export const metadata: Metadata = { title: "MCP Management" };

export default function McpManagementPage() {
  return (
    <AdminOnly>
      <McpScreen />
    </AdminOnly>
  );
}
