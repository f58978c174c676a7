import { personalities, resolvePersonality } from "./personalities";
import { createAssistantInput } from "./schema";
import { DEFAULT_VOICE, isVoiceId, resolveVoice, voiceOptions, voices, type VoiceMapping } from "./voices";

describe("voices", () => {
  it("has the spec's six ids, alloy first and the default", () => {
    expect(voices.map((v) => v.id)).toEqual(["alloy", "echo", "fable", "onyx", "nova", "shimmer"]);
    expect(DEFAULT_VOICE).toBe("alloy");
  });

  it("resolves a known id to its own mapping", () => {
    expect(resolveVoice("onyx").id).toBe("onyx");
    expect(resolveVoice("onyx").elevenlabs.voiceId).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it("falls back to the default voice for unknown, empty or missing ids", () => {
    for (const id of ["robot", "", "ALLOY", null, undefined]) expect(resolveVoice(id).id).toBe("alloy");
    expect(isVoiceId("robot")).toBe(false);
  });

  it("maps every voice to an ElevenLabs voice and a distinct offline flite rendering of the same gender", () => {
    const ids = new Set<string>();
    const renderings = new Set<string>();
    for (const voice of voices) {
      expect(voice.description.length).toBeGreaterThan(5);
      expect(voice.elevenlabs.voiceId).toMatch(/^[A-Za-z0-9]{20}$/);
      ids.add(voice.elevenlabs.voiceId);
      const offline: VoiceMapping["offline"] = voice.offline;
      // flite's only female voice is slt; its male voices are awb, rms, kal16 (and kal, unused).
      expect(offline.voice === "slt").toBe(voice.gender === "female");
      expect(["awb", "kal16", "rms", "slt"]).toContain(offline.voice);
      if (offline.pitchMeanHz !== undefined) expect(offline.pitchMeanHz).toBeGreaterThan(60);
      if (offline.durationStretch !== undefined) expect(Math.abs(offline.durationStretch - 1)).toBeLessThanOrEqual(0.2);
      renderings.add(JSON.stringify(offline));
    }
    expect(ids.size).toBe(voices.length);
    expect(renderings.size).toBe(voices.length);
    expect(resolveVoice("fable").offline.voice).toBe("awb"); // the one British English voice
    expect(voiceOptions()[0]).toEqual({ id: "alloy", label: "Alloy", description: "Neutral, balanced (US English)" });
  });
});

describe("personalities and the create schema", () => {
  it("defaults to friendly and falls back to it", () => {
    expect(personalities[0].id).toBe("friendly");
    expect(resolvePersonality("nonsense").id).toBe("friendly");
    expect(resolvePersonality("concise").id).toBe("concise");
  });

  it("applies the spec's defaults to a name-only body", () => {
    expect(createAssistantInput.parse({ name: "  Voice Assistant 1 " })).toEqual({
      name: "Voice Assistant 1",
      description: "",
      personality: "friendly",
      instructions: "",
      voice: "alloy",
      greeting: "",
      isActive: true,
    });
  });
});
