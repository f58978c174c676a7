import type { Metadata } from "next";
import { VoiceAssistantsScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Voice Assistants" };

export default function VoiceAssistantsPage() {
  return <VoiceAssistantsScreen />;
}
