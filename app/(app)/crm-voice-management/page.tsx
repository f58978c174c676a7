import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { CrmVoiceScreen } from "@/components/crm-voice/crm-voice-screen";

export const metadata: Metadata = { title: "CRM Voice Management" };

export default function CrmVoiceManagementPage() {
  return (
    <AdminOnly>
      <CrmVoiceScreen />
    </AdminOnly>
  );
}
