import type { Metadata } from "next";
import { BillingScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Billing & Credits" };

export default function BillingManagementPage() {
  return <BillingScreen />;
}
