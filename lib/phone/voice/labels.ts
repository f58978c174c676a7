/** How the screens name the providers that answered (shared by server answers and the browser). */
export type ProvidersUsed = { llm: "local" | "anthropic"; tts: "offline" | "elevenlabs" };

const llmLabels: Record<ProvidersUsed["llm"], string> = { local: "local responder", anthropic: "Anthropic Claude" };
const ttsLabels: Record<ProvidersUsed["tts"], string> = { offline: "offline voice", elevenlabs: "ElevenLabs voice" };

/** "local responder · offline voice", "Anthropic Claude · ElevenLabs voice", … */
export function providerLabel(providers: ProvidersUsed): string {
  return `${llmLabels[providers.llm] ?? providers.llm} · ${ttsLabels[providers.tts] ?? providers.tts}`;
}

const llmPlain: Record<ProvidersUsed["llm"], string> = { local: "Switchboard's built-in assistant", anthropic: "Claude" };
const ttsPlain: Record<ProvidersUsed["tts"], string> = { offline: "built-in voice", elevenlabs: "ElevenLabs voice" };

/**
 * The same, in words for an owner: "Switchboard's built-in assistant and voice (no API keys)",
 * "Claude with an ElevenLabs voice". The technical label stays for a "Details" disclosure.
 */
export function plainProviderLabel(providers: ProvidersUsed): string {
  if (providers.llm === "local" && providers.tts === "offline") return "Switchboard's built-in assistant and voice (no API keys)";
  const tts = ttsPlain[providers.tts] ?? providers.tts;
  return `${llmPlain[providers.llm] ?? providers.llm} with ${/^[aeiou]/i.test(tts) ? "an" : "a"} ${tts}`;
}
