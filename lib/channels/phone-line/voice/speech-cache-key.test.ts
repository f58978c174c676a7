/**
 * The speech cache key names the engine: the offline provider speaks Spanish with eSpeak NG, so a
 * clip flite rendered (or would render) is never replayed for a Spanish line, while the keys of
 * English lines — and every ElevenLabs key — are what they were before Spanish had its own voice.
 */
import crypto from "node:crypto";
import { speechCacheKey } from "./runtime";

const previousKey = (tts: string, voice: string, text: string) => crypto.createHash("sha256").update(`${tts}\u0000${voice}\u0000${text}`).digest("hex");

describe("speechCacheKey", () => {
  const spanish = "Gracias por llamar. ¿En qué puedo ayudarle?";
  const english = "Thanks for calling. How can I help you?";

  it("keeps English offline keys and ElevenLabs keys as they were", () => {
    expect(speechCacheKey("offline", "alloy", english)).toBe(previousKey("offline", "alloy", english));
    expect(speechCacheKey("elevenlabs", "alloy", spanish)).toBe(previousKey("elevenlabs", "alloy", spanish));
  });

  it("gives a Spanish offline line a key of its own engine, never the flite clip's key", () => {
    const key = speechCacheKey("offline", "alloy", spanish);
    expect(key).not.toBe(previousKey("offline", "alloy", spanish));
    expect(key).toBe(speechCacheKey("offline", "alloy", spanish));
    expect(key).not.toBe(speechCacheKey("offline", "echo", spanish));
  });

  it("follows the language given to the synthesizer", () => {
    expect(speechCacheKey("offline", "alloy", "Harbor Dental", "es")).not.toBe(speechCacheKey("offline", "alloy", "Harbor Dental"));
    expect(speechCacheKey("offline", "alloy", spanish, "en")).toBe(previousKey("offline", "alloy", spanish));
  });
});
