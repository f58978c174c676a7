/** How the screens name the providers that answered (shared by server answers and the browser). */
export type ProvidersUsed = { llm: "local" | "anthropic"; tts: "offline" | "elevenlabs" };

const llmLabels: Record<ProvidersUsed["llm"], string> = { local: "local responder", anthropic: "Anthropic Claude" };
const ttsLabels: Record<ProvidersUsed["tts"], string> = { offline: "offline voice", elevenlabs: "ElevenLabs voice" };

/** "local responder · offline voice", "Anthropic Claude · ElevenLabs voice", … */
export function providerLabel(providers: ProvidersUsed): string {
  return `${llmLabels[providers.llm] ?? providers.llm} · ${ttsLabels[providers.tts] ?? providers.tts}`;
}
