import type { Metadata } from "next";
import { RecapsScreen } from "@/components/receptionist/recaps-screen";

export const metadata: Metadata = { title: "Recaps" };

export default function RecapsPage() {
  return <RecapsScreen />;
}
