import type { Metadata } from "next";
import { OutboxScreen } from "@/components/receptionist/outbox-screen";

export const metadata: Metadata = { title: "Outbox" };

export default function OutboxPage() {
  return <OutboxScreen />;
}
