import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { AdminScreen } from "@/components/admin/admin-screen";

export const metadata: Metadata = { title: "Admin Dashboard" };

export default function AdminPage() {
  return (
    <AdminOnly>
      <AdminScreen />
    </AdminOnly>
  );
}
