import type { Metadata } from "next";
import { VoiceAssistantsScreen } from "@/components/assistants/voice-assistants-screen";

export const metadata: Metadata = { title: "Voice Assistants" };

export default function VoiceAssistantsPage() {
  return <VoiceAssistantsScreen />;
}
