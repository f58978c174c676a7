import type { Metadata } from "next";
import { PhoneNumbersScreen } from "@/components/phone-numbers/phone-numbers-screen";

export const metadata: Metadata = { title: "Phone Numbers" };

export default function PhoneNumbersPage() {
  return <PhoneNumbersScreen />;
}
