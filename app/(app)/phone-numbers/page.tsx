import type { Metadata } from "next";
import { PhoneNumbersScreen } from "@/components/phone/phone-numbers/phone-numbers-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Phone Numbers" };

export default function PhoneNumbersPage() {
  return (
    <ServerData queries={pageQueries.phoneNumbers}>
      <PhoneNumbersScreen />
    </ServerData>
  );
}
