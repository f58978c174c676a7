import { plainProviderLabel, providerLabel } from "./labels";

describe("provider labels", () => {
  it("names the providers plainly for owners, and technically for the Details disclosure", () => {
    expect(plainProviderLabel({ llm: "local", tts: "offline" })).toBe("Switchboard's built-in assistant and voice (no API keys)");
    expect(plainProviderLabel({ llm: "anthropic", tts: "elevenlabs" })).toBe("Claude with an ElevenLabs voice");
    expect(plainProviderLabel({ llm: "anthropic", tts: "offline" })).toBe("Claude with a built-in voice");
    expect(plainProviderLabel({ llm: "local", tts: "elevenlabs" })).toBe("Switchboard's built-in assistant with an ElevenLabs voice");
    expect(providerLabel({ llm: "local", tts: "offline" })).toBe("local responder · offline voice");
  });
});
