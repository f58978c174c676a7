import type { Metadata } from "next";
import { VoiceTestScreen } from "@/components/phone/voice-test/voice-test-screen";

export const metadata: Metadata = { title: "Voice Test" };

export default function VoiceTestPage() {
  return <VoiceTestScreen />;
}
