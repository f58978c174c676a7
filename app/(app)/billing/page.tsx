import type { Metadata } from "next";
import { BillingScreen } from "@/components/workspace/billing/billing-screen";

export const metadata: Metadata = { title: "Billing & Credits" };

export default function BillingPage() {
  return <BillingScreen />;
}
