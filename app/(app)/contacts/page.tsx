import type { Metadata } from "next";
import { ContactsScreen } from "@/components/receptionist/contacts-screen";

export const metadata: Metadata = { title: "Contacts" };

export default function ContactsPage() {
  return <ContactsScreen />;
}
