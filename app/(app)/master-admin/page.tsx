import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { MasterAdminScreen } from "@/components/master-admin/master-admin-screen";
import { ServerData } from "@/components/app-shell/server-data";
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
