import type { Metadata } from "next";
import { AdminOnly } from "@/components/consoles/admin/admin-only";
import { AdminScreen } from "@/components/consoles/admin/admin-screen";

export const metadata: Metadata = { title: "Admin Dashboard" };

export default function AdminPage() {
  return (
    <AdminOnly>
      <AdminScreen />
    </AdminOnly>
  );
}
