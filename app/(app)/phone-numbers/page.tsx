import type { Metadata } from "next";
import { PhoneNumbersScreen } from "@/components/phone-numbers/phone-numbers-screen";
import { ServerData } from "@/components/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Phone Numbers" };

export default function PhoneNumbersPage() {
  return (
    <ServerData queries={pageQueries.phoneNumbers}>
      <PhoneNumbersScreen />
    </ServerData>
  );
}
