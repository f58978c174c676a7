/**
 * Audio every instance can play (issue 29): clips go to the default blob store, the database, so a
 * <Play> URL made by one instance plays from any other; a synthesized line whose bytes are gone is
 * synthesized again instead of answering 404 to the phone provider; a recording cannot be.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { GET as getAudio } from "@/app/api/audio/[id]/route";
import { POST as voiceTest } from "@/app/api/voice/test/route";
import { audioClips, blobs } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { createPostgresBlobStore, getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { selectTts } from "@/lib/workspace/provider-selection/tts";
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { parseWav } from "@/lib/phone/voice/audio";
import { saveAudioClip, signedAudioUrl } from "@/lib/phone/voice/audio-clips";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { business, startCall } from "../helpers/phone";
import { call } from "../helpers/http";

jest.setTimeout(120_000); // a busy machine: the first request migrates the database
beforeAll(() => setBlobStore(null)); // the default store, as `next start` has it
afterAll(async () => {
  await closeSpeechPools();
  await closeDb();
});

async function fetchAudio(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url, "http://localhost:3000");
  const id = decodeURIComponent(u.pathname.split("/").pop()!);
  const res = await getAudio(new Request(u, { headers }), { params: Promise.resolve({ id }) });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe("audio in the shared store", () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await registerTestUser();
  });

  it("keeps a voice test's audio in the database, where another instance's store reads it, ranges included", async () => {
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "What are your opening hours?" } });
    expect(res.status).toBe(200);
    const db = await getDb();
    const [clip] = await db.select().from(audioClips).where(eq(audioClips.id, res.body.audioId));
    const [blob] = await db.select({ size: blobs.size }).from(blobs).where(eq(blobs.key, clip.storageKey));
    expect(blob.size).toBe(clip.sizeBytes);

    const whole = await fetchAudio(res.body.audioUrl);
    expect(whole.res.status).toBe(200);
    expect(parseWav(whole.body).sampleRate).toBeGreaterThan(0);

    // "Another instance": a store of its own over the same database, with nothing in memory.
    setBlobStore(createPostgresBlobStore(getDb));
    try {
      const part = await fetchAudio(res.body.audioUrl, { range: "bytes=100-1099" });
      expect(part.res.status).toBe(206);
      expect(part.res.headers.get("content-range")).toBe(`bytes 100-1099/${whole.body.length}`);
      expect(part.body.equals(whole.body.subarray(100, 1100))).toBe(true);
    } finally {
      setBlobStore(null);
    }
  });

  it("synthesizes a cached call line again when its blob is gone: the Play URL and the next greeting still play", async () => {
    const db = await getDb();
    const text = `Thanks for calling, this is the front desk ${crypto.randomUUID().slice(0, 4)}.`;
    const tts = await selectTts(db, owner.organizationId);
    const first = await tts.synthesize(text, resolveVoice("alloy"));
    // As the call path saves a cached line (lib/channels/phone-line/voice/runtime.ts speak → saveAudioClip).
    const clip = await saveAudioClip(db, getBlobStore(), {
      organizationId: owner.organizationId,
      audio: first.audio,
      contentType: first.contentType,
      durationMs: null,
      source: "call",
      cacheKey: crypto.randomUUID(),
      speech: { text, voiceId: "alloy" },
    });
    const url = signedAudioUrl(clip.id);
    await getBlobStore().delete(clip.storageKey);
    expect(await getBlobStore().stat(clip.storageKey)).toBeNull();

    const played = await fetchAudio(url);
    expect(played.res.status).toBe(200);
    expect(played.res.headers.get("content-type")).toBe(first.contentType);
    expect(played.body.length).toBeGreaterThan(1000);
    // The bytes are back in the store: the next greeting served from the same clip plays at once.
    expect(await getBlobStore().stat(clip.storageKey)).toEqual({ size: played.body.length });
    const again = await fetchAudio(signedAudioUrl(clip.id), { range: "bytes=0-99" });
    expect(again.res.status).toBe(206);
  });

  it("on the phone path: a greeting whose blob is gone is synthesized again, for this call and the next caller", async () => {
    const biz = await business("Resynth Dental");
    const greetingUrl = async () => {
      const { res } = await startCall(biz);
      const play = res.verbs[0].children.find((c) => c.name === "Play");
      return play!.text;
    };
    const url = await greetingUrl();
    const db = await getDb();
    const id = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
    const [clip] = await db.select().from(audioClips).where(eq(audioClips.id, id));
    // The call path kept the line's words and voice on its row (lib/channels/phone-line/voice/runtime.ts synthesize).
    expect(clip.speechText).toMatch(/Thanks for calling Resynth Dental/);
    expect(clip.voiceId).toBeTruthy();
    await getBlobStore().delete(clip.storageKey);

    const played = await fetchAudio(url);
    expect(played.res.status).toBe(200);
    expect(played.body.length).toBeGreaterThan(1000);
    // The next caller is greeted from the same cached clip, which plays from the store again.
    const next = await greetingUrl();
    expect(decodeURIComponent(new URL(next).pathname.split("/").pop()!)).toBe(id);
    expect((await fetchAudio(next)).res.status).toBe(200);
  });

  it("answers 404 for a recording whose bytes are gone (a caller's voice cannot be made again)", async () => {
    const db = await getDb();
    const clip = await saveAudioClip(db, getBlobStore(), {
      organizationId: owner.organizationId,
      audio: Buffer.alloc(2000, 1),
      contentType: "audio/wav",
      durationMs: null,
      source: "recording",
    });
    await getBlobStore().delete(clip.storageKey);
    const { res } = await fetchAudio(signedAudioUrl(clip.id));
    expect(res.status).toBe(404);
  });
});
