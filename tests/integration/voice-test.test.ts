/**
 * POST /api/voice/test (core and mobile bodies) and GET /api/audio/{id}, on the real database of the
 * run, with the offline providers (local responder + flite in the speech worker pool). Audio goes to a temporary folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GET as getAudio, HEAD as headAudio } from "@/app/api/audio/[id]/route";
import { POST as voiceTest } from "@/app/api/voice/test/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { assistantReplies, audioClips, chatTurns, creditLedger, organizations, tasks, voiceAssistants } from "@/db/schema";
import { changeCredits, getCreditBalance, NO_CREDITS_MESSAGE } from "@/lib/workspace/billing/ledger";
import { creditPrices } from "@/lib/workspace/billing/prices";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import type { LlmProvider } from "@/lib/platform/providers/llm/interface";
import { llmFor } from "@/lib/workspace/provider-selection/llm";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { parseWav } from "@/lib/phone/voice/audio";
import { signAudioToken } from "@/lib/phone/voice/audio-clips";
import { DEMO_RATE_LIMIT } from "@/lib/phone/voice/demo";
import { runVoiceTest } from "@/lib/phone/voice/service";
import { createResource } from "@/lib/scheduling/resources";
import { and, asc, eq, isNull } from "drizzle-orm";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { registerTestUserWithoutAssistants, type TestAccount } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

// The real selection, with a handle to make one turn's language model fail.
jest.mock("@/lib/workspace/provider-selection/llm", () => {
  const actual = jest.requireActual("@/lib/workspace/provider-selection/llm");
  return { ...actual, llmFor: jest.fn(actual.llmFor) };
});

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-audio-"));

beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeSpeechPools();
  await closeDb();
});

async function addAssistant(account: TestAccount, overrides: Partial<typeof voiceAssistants.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(voiceAssistants)
    .values({
      id: crypto.randomUUID(),
      organizationId: account.organizationId,
      name: "Front Desk",
      personality: "friendly",
      instructions: "Offer the next free appointment. Never quote prices you do not have.",
      voice: "alloy",
      greeting: "Thanks for calling Acme Dental, this is the front desk. How can I help?",
      isActive: true,
      ...overrides,
    })
    .returning();
  return row;
}

async function setProfile(account: TestAccount) {
  const db = await getDb();
  await db
    .update(organizations)
    .set({
      name: "Acme Dental",
      businessProfile: { hours: "Mon–Fri 9 AM–5 PM", address: "1 Main Street, Springfield", services: ["cleanings", "fillings"] },
    })
    .where(eq(organizations.id, account.organizationId));
}

/** A client address of its own for each test (the rate-limit key). */
const ip = () => `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

async function fetchAudio(url: string, headers: Record<string, string> = {}, sessionId?: string) {
  const u = new URL(url, "http://localhost:3000");
  const id = decodeURIComponent(u.pathname.split("/").pop()!);
  const res = await getAudio(
    new Request(u, { headers: { ...headers, ...(sessionId ? { authorization: `Bearer ${sessionId}` } : {}) } }),
    { params: Promise.resolve({ id }) },
  );
  return { res, body: Buffer.from(await res.arrayBuffer()), id };
}

describe("POST /api/voice/test — core body {testText}", () => {
  let owner: TestAccount;
  let assistantId: string;

  beforeAll(async () => {
    owner = await registerTestUserWithoutAssistants();
    await setProfile(owner);
    assistantId = (await addAssistant(owner)).id;
  });

  it("answers {input, aiResponse, audioUrl, timestamp} with intent, providers and timings", async () => {
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "What are your opening hours?" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      input: "What are your opening hours?",
      intent: "hours",
      providers: { llm: "local", tts: "offline" },
      assistant: { id: assistantId, name: "Front Desk" },
    });
    expect(res.body.aiResponse).toContain("Mon–Fri 9 AM–5 PM");
    expect(res.body.audioUrl).toMatch(/^\/api\/audio\/[0-9a-f-]{36}\?token=\d+\.[A-Za-z0-9_-]{43}$/);
    expect(new Date(res.body.timestamp).toString()).not.toBe("Invalid Date");
    for (const key of ["llmTotalMs", "ttsTotalMs", "totalMs", "pipelineMs"]) expect(typeof res.body.timings[key]).toBe("number");
    expect(res.body.timings.totalMs).toBeGreaterThanOrEqual(res.body.timings.ttsTotalMs);
  });

  it("records the turn in assistant_reply with its timings, and a usage row in the ledger", async () => {
    const before = await getCreditBalance(await getDb(), owner.organizationId);
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "How much does a cleaning cost?" } });
    expect(res.status).toBe(200);
    expect(res.body.intent).toBe("pricing");
    expect(res.body.aiResponse).not.toMatch(/[$€£]|\d/);

    const db = await getDb();
    const [reply] = await db.select().from(assistantReplies).where(eq(assistantReplies.id, res.body.replyId));
    expect(reply).toMatchObject({
      organizationId: owner.organizationId,
      assistantId,
      source: "voice_test",
      intent: "pricing",
      inputText: "How much does a cleaning cost?",
      replyText: res.body.aiResponse,
      llmProvider: "local",
      ttsProvider: "offline",
    });
    expect(reply.llmFirstTokenMs).not.toBeNull();
    expect(reply.llmTotalMs).toBeGreaterThanOrEqual(0);
    expect(reply.ttsFirstByteMs).toBeGreaterThan(0);
    expect(reply.ttsTotalMs).toBeGreaterThan(0);
    expect(reply.totalMs).toBeGreaterThanOrEqual(reply.ttsTotalMs!);

    const usage = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, owner.organizationId), eq(creditLedger.kind, "usage")));
    expect(usage.some((row) => row.amount === -creditPrices.voiceTestTurn && row.units === creditPrices.voiceTestTurn)).toBe(true);
    expect(await getCreditBalance(db, owner.organizationId)).toBe(before - creditPrices.voiceTestTurn);

    const [clip] = await db.select().from(audioClips).where(eq(audioClips.id, res.body.audioId));
    expect(clip).toMatchObject({ organizationId: owner.organizationId, contentType: "audio/wav", source: "voice_test" });
    expect(clip.durationMs).toBeGreaterThan(300);
  });

  it("answers 400 naming testText when the text is blank or missing", async () => {
    for (const body of [{ testText: "   " }, { testText: "" }, {}]) {
      const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body });
      expect(res.status).toBe(400);
      expect(res.body.errors.testText).toBe("Please enter some text to test the voice pipeline");
      expect(res.body.message).toContain("testText");
    }
  });

  it("answers 401 without a session", async () => {
    const res = await call(voiceTest, "POST", "/api/voice/test", { body: { testText: "Hello" } });
    expect(res.status).toBe(401);
    expect(res.text).toContain("Unauthorized");
  });

  it("uses a named assistant of the organization, and 404s for another organization's", async () => {
    const own = await addAssistant(owner, { name: "Night Line", isActive: false, voice: "onyx", personality: "professional" });
    const ok = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "Hello", assistantId: own.id } });
    expect(ok.status).toBe(200);
    expect(ok.body.assistant).toEqual({ id: own.id, name: "Night Line" });

    const other = await registerTestUserWithoutAssistants();
    const theirs = await addAssistant(other);
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "Hello", assistantId: theirs.id } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Voice assistant not found");
  });

  it("answers 400 telling the user to create or activate an assistant when none is active", async () => {
    const lonely = await registerTestUserWithoutAssistants();
    await addAssistant(lonely, { isActive: false });
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: lonely.sessionId, body: { testText: "Hello" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/No active voice assistant/);
    expect(res.body.message).toMatch(/Create one \(or switch one on\)/);
  });

  it("answers 402 with the buy-credits message at a zero balance, spending nothing", async () => {
    const broke = await registerTestUserWithoutAssistants();
    await addAssistant(broke);
    const db = await getDb();
    const balance = await getCreditBalance(db, broke.organizationId);
    await changeCredits(db, broke.organizationId, "adjustment", -balance, { reason: "test: empty the balance" });
    for (const body of [{ testText: "Hello" }, { text: "Hello", testText: "Hello", sessionId: "mobile-preview-402" }]) {
      const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: broke.sessionId, body });
      expect(res.status).toBe(402);
      expect(res.body.message).toBe(NO_CREDITS_MESSAGE);
    }
    const replies = await db.select().from(assistantReplies).where(eq(assistantReplies.organizationId, broke.organizationId));
    expect(replies).toHaveLength(0);
  });

  it("lets Enterprise run with a zero balance (unlimited), recording usage without spending", async () => {
    const big = await registerTestUserWithoutAssistants();
    await addAssistant(big);
    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "enterprise" }).where(eq(organizations.id, big.organizationId));
    const balance = await getCreditBalance(db, big.organizationId);
    await changeCredits(db, big.organizationId, "adjustment", -balance, { reason: "test: empty the balance" });
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: big.sessionId, body: { testText: "Hello" } });
    expect(res.status).toBe(200);
    expect(await getCreditBalance(db, big.organizationId)).toBe(0);
  });
});

describe("POST /api/voice/test — the conversation engine decides first, as on the phone", () => {
  let owner: TestAccount;
  let assistantId: string;

  beforeAll(async () => {
    owner = await registerTestUserWithoutAssistants();
    await setProfile(owner);
    assistantId = (await addAssistant(owner)).id;
  });

  const ask = (testText: string) => call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText } });
  const balance = async () => getCreditBalance(await getDb(), owner.organizationId);
  const tasksOfOwner = async () => (await getDb()).select().from(tasks).where(eq(tasks.organizationId, owner.organizationId));

  it("ends the test call on a goodbye, with audio as any turn", async () => {
    const res = await ask("No, that's all. Bye!");
    expect(res.status).toBe(200);
    expect(res.body.aiResponse).toBe("Thanks for calling Acme Dental. Have a great day. Goodbye!");
    expect(res.body.decision).toMatchObject({ kind: "end", ended: true, wouldTransferTo: null, taskWritten: false, note: "The call would end here." });
    expect(res.body.audioUrl).toMatch(/^\/api\/audio\//);
  });

  it("shows a transfer as 'would transfer to …' (the browser cannot dial), to the number the owner's rule names", async () => {
    const db = await getDb();
    await db
      .update(voiceAssistants)
      .set({ callRules: [{ when: "emergency", action: "transfer", to: "+14155550177" }] })
      .where(and(eq(voiceAssistants.id, assistantId), eq(voiceAssistants.organizationId, owner.organizationId)));
    const res = await ask("This is an emergency, my tooth is bleeding and won't stop");
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ kind: "transfer", wouldTransferTo: "+14155550177", ended: false });
    expect(res.body.decision.note).toMatch(/^Would transfer to \+14155550177/);
  });

  it("writes the task when the words are a message, and says so only then", async () => {
    const before = (await tasksOfOwner()).length;
    const res = await ask("Can the doctor call me back about my lab results? My number is 415 555 0142, it's Greg Hall.");
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ kind: "take_message", taskWritten: true });
    expect(res.body.aiResponse).toMatch(/Greg Hall.*written your message down/);
    const after = await tasksOfOwner();
    expect(after).toHaveLength(before + 1);
    const task = after.find((t) => t.detail.includes("lab results"))!;
    expect(task).toMatchObject({ kind: "message", contactName: "Greg Hall", contactNumber: "+14155550142" });
  });

  it("knows the staff by name, as on the phone: nobody called Ramirez, and Dr. Chen is someone who works there", async () => {
    const db = await getDb();
    await createResource(db, owner.organizationId, { name: "Dr. Chen", kind: "staff", followsBusinessHours: true, weeklyHours: null, isActive: true });
    const missing = await ask("Hi, is Dr. Ramirez in today?");
    expect(missing.status).toBe(200);
    expect(missing.body.decision).toMatchObject({ kind: "no_such_person" });
    expect(missing.body.aiResponse).toMatch(/Ramirez.*Dr\. Chen/);
    const known = await ask("Hi, is Dr. Chen in today?");
    expect(known.status).toBe(200);
    expect(known.body.decision.kind).not.toBe("no_such_person");
  });

  it("declines spam before any cost: no credit, no task", async () => {
    const [creditsBefore, tasksBefore] = [await balance(), (await tasksOfOwner()).length];
    const res = await ask("Hi, this is Sarah from merchant services, we can lower your credit card processing rates today, are you the business owner?");
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ kind: "spam", ended: true });
    expect(await balance()).toBe(creditsBefore);
    expect((await tasksOfOwner()).length).toBe(tasksBefore);
  });

  it("still charges and answers an ordinary question through the model", async () => {
    const before = await balance();
    const res = await ask("What are your opening hours?");
    expect(res.body.decision).toBeNull();
    expect(res.body.intent).toBe("hours");
    expect(await balance()).toBe(before - creditPrices.voiceTestTurn);
  });

  it("takes a message over two turns of a chat session: asked first, written on the next words", async () => {
    const sessionId = `mobile-preview-${uniqueSuffix()}`;
    const chat = (text: string) => call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { text, testText: text, sessionId } });
    const first = await chat("Can someone call me back?");
    expect(first.body).toMatchObject({ success: true, decision: { kind: "ask_message", taskWritten: false } });
    const before = (await tasksOfOwner()).length;
    const second = await chat("This is Tom Baker, it's about my bill from last week");
    expect(second.body.decision).toMatchObject({ kind: "take_message", taskWritten: true });
    expect(second.body.aiResponse).toMatch(/^Thank you, Tom Baker\. I've written your message down/);
    expect((await tasksOfOwner()).length).toBe(before + 1);
  });
});

describe("POST /api/voice/test — mobile body {text, testText, sessionId}", () => {
  let owner: TestAccount;

  beforeAll(async () => {
    owner = await registerTestUserWithoutAssistants();
    await setProfile(owner);
    await addAssistant(owner);
  });

  it("answers {success, aiResponse, audioFile, intent, error} signed in", async () => {
    const text = "Hello, I'd like to book an appointment";
    const res = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: owner.sessionId,
      body: { text, testText: text, sessionId: `mobile-preview-${uniqueSuffix()}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, intent: "appointment", error: null, providers: { llm: "local", tts: "offline" } });
    expect(res.body.aiResponse).toMatch(/What day and time work best for you\?/);
    expect(res.body.audioFile).toMatch(/^\/api\/audio\/[0-9a-f-]{36}\?token=/);
    const db = await getDb();
    const [reply] = await db.select().from(assistantReplies).where(eq(assistantReplies.id, res.body.replyId));
    expect(reply.source).toBe("chat");
  });

  it("keeps the conversation's context: the second turn sees the first", async () => {
    const sessionId = `mobile-preview-${uniqueSuffix()}`;
    const first = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: owner.sessionId,
      body: { text: "I'd like to book a cleaning", testText: "I'd like to book a cleaning", sessionId },
    });
    expect(first.body.intent).toBe("appointment");
    const second = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: owner.sessionId,
      body: { text: "Tuesday at 3pm", testText: "Tuesday at 3pm", sessionId },
    });
    expect(second.status).toBe(200);
    // "Tuesday at 3pm" alone is no booking; it is one because the first turn asked for a time.
    expect(second.body.intent).toBe("appointment");
    expect(second.body.aiResponse).toMatch(/^Tuesday at 3pm — noted\./);

    // Another session with the same words starts afresh.
    const fresh = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: owner.sessionId,
      body: { text: "Tuesday at 3pm", sessionId: `mobile-preview-${uniqueSuffix()}` },
    });
    expect(fresh.body.intent).toBe("other");

    const db = await getDb();
    const turns = await db
      .select()
      .from(chatTurns)
      .where(and(eq(chatTurns.organizationId, owner.organizationId), eq(chatTurns.chatSessionId, sessionId)))
      .orderBy(asc(chatTurns.createdAt), asc(chatTurns.role));
    expect(turns.map((t) => [t.role, t.content])).toEqual([
      ["user", "I'd like to book a cleaning"],
      ["assistant", first.body.aiResponse],
      ["user", "Tuesday at 3pm"],
      ["assistant", second.body.aiResponse],
    ]);
  });

  it("accepts testText alone with a sessionId, and answers 400 naming text when both are blank", async () => {
    const ok = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "Hi", sessionId: "mobile-preview-x" } });
    expect(ok.status).toBe(200);
    for (const body of [{ text: "  ", testText: "", sessionId: "mobile-preview-x" }, { text: "" }]) {
      const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body });
      expect(res.status).toBe(400);
      expect(res.body.errors.text).toBe("Please enter some text to test the voice pipeline");
    }
  });

  it("keeps the mobile shape with success false when a provider fails, and refunds the credit", async () => {
    const failing: LlmProvider = {
      name: "anthropic",
      generateReply: async () => {
        throw new Error("Anthropic failed (529): overloaded");
      },
      streamReply: async function* () {
        throw new Error("Anthropic failed (529): overloaded");
      },
      analyzeConversation: async () => {
        throw new Error("not used");
      },
    };
    (llmFor as jest.Mock).mockReturnValueOnce(failing);
    const db = await getDb();
    const before = await getCreditBalance(db, owner.organizationId);
    {
      const res = await call(voiceTest, "POST", "/api/voice/test", {
        sessionId: owner.sessionId,
        body: { text: "Hello", testText: "Hello", sessionId: "mobile-preview-fail" },
      });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, aiResponse: null, audioFile: null, intent: null });
      expect(res.body.error).toMatch(/The language model failed\. Anthropic failed \(529\): overloaded/);
    }
    expect(await getCreditBalance(db, owner.organizationId)).toBe(before);
    const refunds = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, owner.organizationId), eq(creditLedger.kind, "refund")));
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount).toBe(creditPrices.voiceTestTurn);
  });

  it("works signed out with the public demo assistant, spending nothing and recording no assistant_reply", async () => {
    const sessionId = `mobile-preview-${uniqueSuffix()}`;
    const res = await call(voiceTest, "POST", "/api/voice/test", {
      headers: { [PEER_ADDRESS_HEADER]: ip() },
      body: { text: "What are your opening hours?", testText: "What are your opening hours?", sessionId },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, intent: "hours", assistant: { id: null, name: "Sam" } });
    expect(res.body.aiResponse).toContain("Our hours are Monday to Friday 7 AM–6 PM; Saturday and Sunday 8 AM–4 PM.");
    expect(res.body.replyId).toBeNull();

    const db = await getDb();
    const turns = await db
      .select()
      .from(chatTurns)
      .where(and(isNull(chatTurns.organizationId), eq(chatTurns.chatSessionId, `demo:${sessionId}`)));
    expect(turns).toHaveLength(2);

    // The demo clip needs the token: no session, no token → 401; with the token → 200.
    const { res: audio } = await fetchAudio(res.body.audioFile);
    expect(audio.status).toBe(200);
    const bare = await fetchAudio(res.body.audioFile.split("?")[0]);
    expect(bare.res.status).toBe(401);
    // A signed-in organization cannot read demo clips without the token either.
    const byOrg = await fetchAudio(res.body.audioFile.split("?")[0], {}, owner.sessionId);
    expect(byOrg.res.status).toBe(404);
  });

  it("limits signed-out turns per IP address (429 after the limit)", async () => {
    const address = ip();
    const body = { text: "Hi", testText: "Hi", sessionId: `mobile-preview-${uniqueSuffix()}` };
    for (let i = 0; i < DEMO_RATE_LIMIT.limit; i++) {
      const res = await call(voiceTest, "POST", "/api/voice/test", { headers: { [PEER_ADDRESS_HEADER]: address }, body });
      expect(res.status).toBe(200);
    }
    const limited = await call(voiceTest, "POST", "/api/voice/test", { headers: { [PEER_ADDRESS_HEADER]: address }, body });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.body.message).toMatch(/Too many demo messages/);
    // Another address is not affected.
    const other = await call(voiceTest, "POST", "/api/voice/test", { headers: { [PEER_ADDRESS_HEADER]: ip() }, body });
    expect(other.status).toBe(200);
  }, 60_000);
});

describe("GET /api/audio/{id}", () => {
  let owner: TestAccount;
  let audioUrl: string;
  let audioId: string;

  beforeAll(async () => {
    owner = await registerTestUserWithoutAssistants();
    await addAssistant(owner);
    const res = await call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { testText: "Can I speak to a person?" } });
    audioUrl = res.body.audioUrl;
    audioId = res.body.audioId;
  });

  it("serves the clip with a token: 200 audio/wav, Content-Length, Accept-Ranges, a playable WAV", async () => {
    const { res, body } = await fetchAudio(audioUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
    const wav = parseWav(body);
    expect(wav).toMatchObject({ channels: 1, sampleRate: 16000, bitsPerSample: 16 });
    expect(wav.durationMs).toBeGreaterThan(300);
  });

  it("answers a Range request with 206 and exactly those bytes", async () => {
    const { body: whole } = await fetchAudio(audioUrl);
    const { res, body } = await fetchAudio(audioUrl, { range: "bytes=0-43" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 0-43/${whole.length}`);
    expect(res.headers.get("content-length")).toBe("44");
    expect(body.equals(whole.subarray(0, 44))).toBe(true);

    const middle = await fetchAudio(audioUrl, { range: "bytes=100-199" });
    expect(middle.body.equals(whole.subarray(100, 200))).toBe(true);
    const open = await fetchAudio(audioUrl, { range: `bytes=${whole.length - 10}-` });
    expect(open.res.headers.get("content-range")).toBe(`bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`);
    expect(open.body.equals(whole.subarray(whole.length - 10))).toBe(true);
    const suffix = await fetchAudio(audioUrl, { range: "bytes=-20" });
    expect(suffix.res.status).toBe(206);
    expect(suffix.body.equals(whole.subarray(whole.length - 20))).toBe(true);
  });

  it("answers 416 for an unsatisfiable range", async () => {
    const { body: whole } = await fetchAudio(audioUrl);
    const { res } = await fetchAudio(audioUrl, { range: `bytes=${whole.length + 10}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${whole.length}`);
  });

  it("answers HEAD with the headers and no body", async () => {
    const u = new URL(audioUrl, "http://localhost:3000");
    const res = await headAudio(new Request(u, { method: "HEAD" }), { params: Promise.resolve({ id: audioId }) });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(44);
  });

  it("serves the owning organization's session without a token", async () => {
    const { res } = await fetchAudio(`/api/audio/${audioId}`, {}, owner.sessionId);
    expect(res.status).toBe(200);
  });

  it("refuses a bad, expired or other clip's token with 403", async () => {
    const tampered = audioUrl.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await fetchAudio(tampered)).res.status).toBe(403);
    const expired = `/api/audio/${audioId}?token=${encodeURIComponent(signAudioToken(audioId, Date.now() - 16 * 60 * 1000))}`;
    expect((await fetchAudio(expired)).res.status).toBe(403);
    const otherId = crypto.randomUUID();
    const foreign = `/api/audio/${audioId}?token=${encodeURIComponent(signAudioToken(otherId))}`;
    expect((await fetchAudio(foreign)).res.status).toBe(403);
  });

  it("answers 404 to another organization's session without a token, and for unknown ids", async () => {
    const other = await registerTestUserWithoutAssistants();
    expect((await fetchAudio(`/api/audio/${audioId}`, {}, other.sessionId)).res.status).toBe(404);
    const unknown = crypto.randomUUID();
    expect((await fetchAudio(`/api/audio/${unknown}?token=${encodeURIComponent(signAudioToken(unknown))}`)).res.status).toBe(404);
  });
});

describe("runVoiceTest service", () => {
  it("refunds the spent credit when speech synthesis fails", async () => {
    const owner = await registerTestUserWithoutAssistants();
    await addAssistant(owner);
    const db = await getDb();
    const before = await getCreditBalance(db, owner.organizationId);
    const error = await runVoiceTest(db, {
      organizationId: owner.organizationId,
      userId: owner.id,
      text: "Hello",
      chatSessionId: null,
      source: "voice_test",
      startedAt: performance.now(),
      providers: {
        tts: {
          name: "elevenlabs",
          contentType: "audio/mpeg",
          synthesize: async () => {
            throw new Error("ElevenLabs speech synthesis failed (401): the API key was refused");
          },
          synthesizeStream: async function* () {
            throw new Error("ElevenLabs speech synthesis failed (401): the API key was refused");
          },
        },
      },
    }).catch((e) => e);
    expect(error.status).toBe(502);
    expect(error.message).toBe("Speech synthesis failed. ElevenLabs speech synthesis failed (401): the API key was refused");
    expect(await getCreditBalance(db, owner.organizationId)).toBe(before);
  });
});
