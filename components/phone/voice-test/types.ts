import type { ProvidersUsed } from "@/lib/phone/voice/labels";
import type { TurnTimings } from "@/lib/phone/voice/pipeline";

/** The turn's timings as POST /api/voice/test answers them (the pipeline's, and the whole request). */
export type VoiceTimings = TurnTimings & { totalMs: number };

/** POST /api/voice/test with the core body {testText} (docs/api.md#voice). */
export type VoiceTestResponse = {
  input: string;
  aiResponse: string;
  audioUrl: string;
  timestamp: string;
  intent: string;
  assistant: { id: string | null; name: string };
  providers: ProvidersUsed;
  timings: VoiceTimings;
  /** Set when the assistant could not answer from the business's knowledge (logged as a question for the owner). */
  knowledgeGap?: { id: string | null; question: string } | null;
  /** What the phone line would do beyond the words (a goodbye, a transfer the browser cannot dial, a task written, spam). */
  decision?: { kind: string; ended: boolean; wouldTransferTo: string | null; taskWritten: boolean; note: string | null } | null;
};

/** POST /api/voice/test with the mobile body {text, testText, sessionId}. */
export type MobileVoiceTestResponse = {
  success: boolean;
  aiResponse: string | null;
  audioFile: string | null;
  intent: string | null;
  error: string | null;
  timestamp?: string;
  providers?: ProvidersUsed;
};

/** "human_handoff" → "Human handoff". */
export function intentLabel(intent: string): string {
  const words = intent.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
