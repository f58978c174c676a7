import type { Metadata } from "next";
import { PhoneNumbersScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Phone Numbers" };

export default function PhoneNumbersPage() {
  return <PhoneNumbersScreen />;
}
