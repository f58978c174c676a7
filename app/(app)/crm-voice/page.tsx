import type { Metadata } from "next";
import { AdminOnly } from "@/components/consoles/admin/admin-only";
import { CrmVoiceScreen } from "@/components/reports/crm-voice/crm-voice-screen";

export const metadata: Metadata = { title: "CRM Voice Management" };

export default function CrmVoicePage() {
  return (
    <AdminOnly>
      <CrmVoiceScreen />
    </AdminOnly>
  );
}
