import type { Metadata } from "next";
import { AdminOnly } from "@/components/consoles/admin/admin-only";
import { McpScreen } from "@/components/agents/mcp/mcp-screen";

export const metadata: Metadata = { title: "MCP Management" };

export default function McpPage() {
  return (
    <AdminOnly>
      <McpScreen />
    </AdminOnly>
  );
}
