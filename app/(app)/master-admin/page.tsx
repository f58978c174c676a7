import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { MasterAdminScreen } from "@/components/master-admin/master-admin-screen";

export const metadata: Metadata = { title: "Master Admin Dashboard" };

export default function MasterAdminPage() {
  return (
    <AdminOnly level="master">
      <MasterAdminScreen />
    </AdminOnly>
  );
}
