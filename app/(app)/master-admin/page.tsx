import type { Metadata } from "next";
import { AdminOnly } from "@/components/consoles/admin/admin-only";
import { MasterAdminScreen } from "@/components/consoles/master-admin/master-admin-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Master Admin Dashboard" };

export default function MasterAdminPage() {
  return (
    <AdminOnly level="master">
      <ServerData queries={pageQueries.masterAdmin}>
        <MasterAdminScreen />
      </ServerData>
    </AdminOnly>
  );
}
