/**
 * Knowledge gaps end to end: a question the assistant cannot answer from the business's knowledge
 * is logged with where it was asked (voice test, chat, call); repeats are one gap; the owner answers
 * it once and the answer becomes an FAQ — the next turn answers from it and logs nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { GET as getProfile } from "@/app/api/business-profile/route";
import { GET as listGaps } from "@/app/api/knowledge-gaps/route";
import { GET as getGap } from "@/app/api/knowledge-gaps/[id]/route";
import { POST as answerGap } from "@/app/api/knowledge-gaps/[id]/answer/route";
import { POST as dismissGap } from "@/app/api/knowledge-gaps/[id]/dismiss/route";
import { POST as voiceTest } from "@/app/api/voice/test/route";
import { calls, knowledgeGapOccurrences, knowledgeGaps, organizations, services, voiceAssistants } from "@/db/schema";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { recordKnowledgeGap } from "@/lib/knowledge/gaps/service";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-gaps-"));
let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  setBlobStore(createFilesystemBlobStore(blobDir));
  [owner, other] = await Promise.all([registerTestUser(), registerTestUser()]);
  const db = await getDb();
  await db
    .update(organizations)
    .set({
      name: "Harbor Dental Studio",
      businessProfile: {
        timezone: "America/Los_Angeles",
        address: "214 Harbor Street, Portland, OR 97201",
        weeklyHours: { mon: [{ open: "08:00", close: "18:00" }], tue: [{ open: "08:00", close: "18:00" }] },
        faqs: [{ question: "Do you have parking?", answer: "Yes, free parking behind the building." }],
      },
    })
    .where(eq(organizations.id, owner.organizationId));
  await db.insert(services).values({ id: crypto.randomUUID(), organizationId: owner.organizationId, name: "Cleaning", durationMinutes: 60, priceCents: 12000 });
  for (const account of [owner, other]) {
    await db.insert(voiceAssistants).values({
      id: crypto.randomUUID(),
      organizationId: account.organizationId,
      name: "Front Desk",
      personality: "friendly",
      instructions: "Greet callers warmly.",
      voice: "alloy",
      isActive: true,
    });
  }
});

afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

const ask = (testText: string, account = owner) => call(voiceTest, "POST", "/api/voice/test", { sessionId: account.sessionId, body: { testText } });
const chat = (text: string, sessionId: string) => call(voiceTest, "POST", "/api/voice/test", { sessionId: owner.sessionId, body: { text, testText: text, sessionId } });
const gaps = (query = "", account = owner) => call(listGaps, "GET", `/api/knowledge-gaps${query}`, { sessionId: account.sessionId });

describe("knowledge gaps", () => {
  let invisalignId: string;

  it("answers what it knows without logging a gap", async () => {
    const res = await ask("How much is a cleaning?");
    expect(res.status).toBe(200);
    expect(res.body.aiResponse).toMatch(/^Cleaning is \$120 and takes about 1 hour\./);
    expect(res.body.knowledgeGap).toBeNull();
    const parking = await ask("Is there parking?");
    expect(parking.body.aiResponse).toMatch(/free parking behind the building/);
    expect((await gaps()).body).toEqual({ items: [], counts: { open: 0, answered: 0, dismissed: 0 } });
  });

  it("logs a question it cannot answer with where it was asked; the same question again is one gap", async () => {
    const first = await ask("Do you offer Invisalign?");
    expect(first.status).toBe(200);
    expect(first.body.aiResponse).toMatch(/won't guess/);
    expect(first.body.knowledgeGap).toEqual({ id: expect.any(String), question: "Do you offer Invisalign?" });
    invisalignId = first.body.knowledgeGap.id;

    const again = await chat("do you offer invisalign", "chat-1");
    expect(again.body.success).toBe(true);
    expect(again.body.knowledgeGap.id).toBe(invisalignId);
    await ask("Is there a pharmacy nearby?");

    const list = await gaps();
    expect(list.status).toBe(200);
    expect(list.body.counts).toEqual({ open: 2, answered: 0, dismissed: 0 });
    const invisalign = list.body.items.find((g: any) => g.id === invisalignId);
    expect(invisalign).toMatchObject({
      question: "Do you offer Invisalign?",
      status: "open",
      answer: null,
      occurrences: 2,
      lastOccurrence: { source: "chat", chatSessionId: "chat-1", question: "do you offer invisalign", callId: null },
    });
    expect(invisalign.lastOccurrence.replyText).toMatch(/won't guess/);

    const detail = await call(getGap, "GET", `/api/knowledge-gaps/${invisalignId}`, { sessionId: owner.sessionId, params: { id: invisalignId } });
    expect(detail.body.occurrenceList.map((o: any) => o.source)).toEqual(["chat", "voice_test"]);
    const [row] = await (await getDb()).select().from(knowledgeGapOccurrences).where(and(eq(knowledgeGapOccurrences.gapId, invisalignId), eq(knowledgeGapOccurrences.source, "voice_test")));
    expect(row.assistantReplyId).toBe(first.body.replyId);
  });

  it("keeps organizations apart: another organization sees no gap and gets 404 for this one", async () => {
    expect((await gaps("", other)).body.items).toEqual([]);
    for (const [handler, method, suffix] of [
      [getGap, "GET", ""],
      [answerGap, "POST", "/answer"],
      [dismissGap, "POST", "/dismiss"],
    ] as const) {
      const res = await call(handler, method, `/api/knowledge-gaps/${invisalignId}${suffix}`, {
        sessionId: other.sessionId,
        params: { id: invisalignId },
        body: suffix === "/answer" ? { answer: "No." } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Knowledge gap not found");
    }
    expect((await call(listGaps, "GET", "/api/knowledge-gaps")).status).toBe(401);
    expect((await gaps("?status=closed")).body.errors).toEqual({ status: "Status must be open, answered, dismissed or all" });
  });

  it("a gap answered becomes knowledge: an FAQ, and the next answer uses it", async () => {
    const empty = await call(answerGap, "POST", `/api/knowledge-gaps/${invisalignId}/answer`, { sessionId: owner.sessionId, params: { id: invisalignId }, body: { answer: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ answer: "Write the answer" });

    const answered = await call(answerGap, "POST", `/api/knowledge-gaps/${invisalignId}/answer`, {
      sessionId: owner.sessionId,
      params: { id: invisalignId },
      body: { answer: "Yes — Dr. Chen offers Invisalign, and the first consultation is free." },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "answered", answer: "Yes — Dr. Chen offers Invisalign, and the first consultation is free." });
    const profile = await call(getProfile, "GET", "/api/business-profile", { sessionId: owner.sessionId });
    expect(profile.body.faqs).toEqual([
      { question: "Do you have parking?", answer: "Yes, free parking behind the building." },
      { question: "Do you offer Invisalign?", answer: "Yes — Dr. Chen offers Invisalign, and the first consultation is free." },
    ]);

    const next = await ask("Do you do Invisalign?");
    expect(next.body.aiResponse).toMatch(/^Yes — Dr\. Chen offers Invisalign, and the first consultation is free\./);
    expect(next.body.knowledgeGap).toBeNull();
    expect((await gaps()).body.counts).toEqual({ open: 1, answered: 1, dismissed: 0 });
    expect((await gaps("?status=answered")).body.items.map((g: any) => g.question)).toEqual(["Do you offer Invisalign?"]);

    // Answering again replaces the FAQ's answer rather than adding a second one.
    await call(answerGap, "POST", `/api/knowledge-gaps/${invisalignId}/answer`, { sessionId: owner.sessionId, params: { id: invisalignId }, body: { answer: "Yes, from $3,000." } });
    const faqs = (await call(getProfile, "GET", "/api/business-profile", { sessionId: owner.sessionId })).body.faqs;
    expect(faqs.filter((f: any) => /invisalign/i.test(f.question))).toEqual([{ question: "Do you offer Invisalign?", answer: "Yes, from $3,000." }]);
  });

  it("dismisses a gap that is not a real question", async () => {
    const open = (await gaps()).body.items[0];
    const res = await call(dismissGap, "POST", `/api/knowledge-gaps/${open.id}/dismiss`, { sessionId: owner.sessionId, params: { id: open.id } });
    expect(res.body.status).toBe("dismissed");
    expect((await gaps()).body).toMatchObject({ items: [], counts: { open: 0, answered: 1, dismissed: 1 } });
    expect((await gaps("?status=all")).body.items).toHaveLength(2);
  });

  it("links an occurrence to its call (the phone loop's calls), and concurrent repeats stay one gap", async () => {
    const db = await getDb();
    const callId = crypto.randomUUID();
    await db.insert(calls).values({
      id: callId,
      organizationId: owner.organizationId,
      direction: "inbound",
      fromNumber: "+15035550111",
      toNumber: "+15035550142",
      status: "completed",
    });
    await Promise.all(
      Array.from({ length: 12 }, () => recordKnowledgeGap(db, { organizationId: owner.organizationId, question: "Do you whiten teeth for teenagers?", source: "call", callId, replyText: "I don't know." })),
    );
    const rows = await db.select().from(knowledgeGaps).where(and(eq(knowledgeGaps.organizationId, owner.organizationId), eq(knowledgeGaps.status, "open")));
    expect(rows).toHaveLength(1);
    expect(rows[0].occurrences).toBe(12);
    const listed = (await gaps()).body.items[0];
    expect(listed.lastOccurrence).toMatchObject({ source: "call", callId, caller: "+15035550111" });
  });
});
