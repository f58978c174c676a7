import type { Metadata } from "next";
import { VoiceTestScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Voice Test" };

export default function VoiceTestPage() {
  return <VoiceTestScreen />;
}
