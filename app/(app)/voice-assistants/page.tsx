import type { Metadata } from "next";
import { VoiceAssistantsScreen } from "@/components/agents/assistants/voice-assistants-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Voice Assistants" };

export default function VoiceAssistantsPage() {
  return (
    <ServerData queries={pageQueries.assistants}>
      <VoiceAssistantsScreen />
    </ServerData>
  );
}
