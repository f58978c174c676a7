import { POST as login } from "@/app/api/auth/login/route";
import { GET as stats } from "@/app/api/dashboard/stats/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { assistantReplies, calls, contacts, messages, users, voiceAssistants } from "@/db/schema";
import { isEmpty, seedDemo, seedIfEmpty } from "@/lib/consoles/seed/demo";
import { demoAccount, demoAdminAccount, demoMasterAccount } from "@/lib/consoles/demo-accounts";
import { and, avg, count, eq } from "drizzle-orm";
import { loadKnowledge } from "@/lib/knowledge/business-profile/service";
import { listKnowledgeGaps } from "@/lib/knowledge/gaps/service";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { unansweredQuestions } from "@/lib/consoles/seed/business";
import { listServices } from "@/lib/knowledge/services/service";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

describe("demo seed and GET /api/dashboard/stats", () => {
  let demoOrg: string;

  beforeAll(async () => {
    const db = await getDb();
    // On an in-memory PGlite this file's database is empty: the first-start path seeds it. With
    // DATABASE_URL the run's database is shared with other files, so seed the demo directly.
    if (await isEmpty(db)) await seedIfEmpty(db);
    const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.email, demoAccount.email));
    if (!demo) await seedDemo(db);
  }, 120_000); // the seed writes 30 days of activity and hashes three passwords: slow on a busy machine

  it("seeds three accounts that can sign in, with the roles the README names", async () => {
    for (const account of [demoAccount, demoAdminAccount, demoMasterAccount]) {
      const res = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } });
      expect(res.status).toBe(200);
      expect(res.body.role).toBe(account.role);
      demoOrg = res.body.organizationId;
    }
  });

  it("seeds Harbor Dental's knowledge: weekly hours, services with prices, policies, FAQs, and the questions it could not answer", async () => {
    const db = await getDb();
    const knowledge = await loadKnowledge(db, demoOrg, new Date("2026-11-24T23:05:00Z"));
    expect(knowledge.hours).toBe("Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed");
    expect(knowledge.timezone).toBe("America/Los_Angeles");
    expect(knowledge.policies?.map((p) => p.title)).toEqual(["Cancellations", "Insurance and payment", "Late arrivals"]);
    expect(knowledge.faqs?.length).toBeGreaterThanOrEqual(4);
    const rows = await listServices(db, demoOrg);
    expect(rows.map((r) => [r.name, r.durationMinutes, r.priceCents ?? r.priceText])).toEqual([
      ["Cleaning and exam", 60, 12000],
      ["Emergency visit", 30, 9500],
      ["Filling", 45, "from $150"],
      ["Night guard", 30, 45000],
      ["Teeth whitening", 90, "from $350"],
    ]);
    const gaps = await listKnowledgeGaps(db, demoOrg, { status: "open", limit: 50 });
    expect(gaps.counts.open).toBe(unansweredQuestions.length);
    for (const question of unansweredQuestions) {
      const gap = gaps.items.find((g) => g.question === question.question)!;
      expect(gap.occurrences).toBe(question.times);
      expect(gap.lastOccurrence).toMatchObject({ source: "call", callId: expect.any(String) });
      // True to the seeded knowledge: the local responder still cannot answer it, and says so.
      const reply = await createLocalResponder().generateReply({
        assistant: { name: "Front Desk", personality: "friendly", instructions: "" },
        profile: knowledge,
        history: [],
        text: question.question,
      });
      expect(reply.knowledgeGap).toEqual({ question: question.question });
    }
  });

  it("gives every caller number one name (or none, always) across calls and contacts, and every name one number", async () => {
    const db = await getDb();
    const [demo] = await db.select({ organizationId: users.organizationId }).from(users).where(eq(users.email, demoAccount.email));
    const demoOrg = demo.organizationId!;
    const namesByNumber = new Map<string, Set<string | null>>();
    const note = (phone: string, name: string | null) => {
      if (!namesByNumber.has(phone)) namesByNumber.set(phone, new Set());
      namesByNumber.get(phone)!.add(name);
    };
    const callRows = await db.select({ from: calls.fromNumber, name: calls.callerName, direction: calls.direction }).from(calls).where(eq(calls.organizationId, demoOrg));
    for (const row of callRows) if (row.direction === "inbound") note(row.from, row.name);
    for (const row of await db.select({ phone: contacts.phone, name: contacts.name }).from(contacts).where(eq(contacts.organizationId, demoOrg))) {
      if (row.name) note(row.phone, row.name);
    }
    // Texts carry no name of their own: their numbers are the callers' (or a spam sender's).
    const textNumbers = await db.select({ from: messages.fromNumber }).from(messages).where(and(eq(messages.organizationId, demoOrg), eq(messages.direction, "inbound")));
    expect(textNumbers.length).toBeGreaterThan(0);

    const twoNames = [...namesByNumber].filter(([, names]) => names.size > 1).map(([phone, names]) => `${phone}: ${[...names].join(" / ")}`);
    expect(twoNames).toEqual([]);
    const numbersByName = new Map<string, Set<string>>();
    for (const [phone, names] of namesByNumber) {
      for (const name of names) if (name) numbersByName.set(name, (numbersByName.get(name) ?? new Set()).add(phone));
    }
    const twoNumbers = [...numbersByName].filter(([, phones]) => phones.size > 1).map(([name, phones]) => `${name}: ${[...phones].join(", ")}`);
    expect(twoNumbers).toEqual([]);
    // Some callers call again: the check above means something.
    expect(callRows.length).toBeGreaterThan(namesByNumber.size);
    expect(numbersByName.size).toBeGreaterThan(5);
  });

  it("seeds nothing a second time", async () => {
    const db = await getDb();
    expect(await seedIfEmpty(db)).toBeNull();
  });

  it("computes the demo organization's figures from its rows", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { email: demoAccount.email, password: demoAccount.password } });
    const out = await call(stats, "GET", "/api/dashboard/stats", { sessionId: res.body.sessionId });
    expect(out.status).toBe(200);

    const db = await getDb();
    const [c] = await db.select({ n: count() }).from(calls).where(eq(calls.organizationId, demoOrg));
    const [m] = await db.select({ n: count() }).from(messages).where(eq(messages.organizationId, demoOrg));
    const [a] = await db
      .select({ n: count() })
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.organizationId, demoOrg), eq(voiceAssistants.isActive, true)));
    const [r] = await db.select({ ms: avg(assistantReplies.totalMs) }).from(assistantReplies).where(eq(assistantReplies.organizationId, demoOrg));

    expect(out.body).toEqual({
      totalCalls: c.n,
      activeAssistants: a.n,
      totalMessages: m.n,
      avgResponseTime: `${(Number(r.ms) / 1000).toFixed(1)}s`,
    });
    expect(out.body.totalCalls).toBeGreaterThan(0);
    expect(out.body.totalMessages).toBeGreaterThan(0);
    expect(out.body.activeAssistants).toBe(2);
  });

  it("keeps its figures exact as calls, texts and replies are added, changed and deleted (counts kept by triggers)", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { email: demoAccount.email, password: demoAccount.password } });
    const db = await getDb();
    const fromRows = async () => {
      const [c] = await db.select({ n: count() }).from(calls).where(eq(calls.organizationId, demoOrg));
      const [m] = await db.select({ n: count() }).from(messages).where(eq(messages.organizationId, demoOrg));
      const [r] = await db.select({ ms: avg(assistantReplies.totalMs) }).from(assistantReplies).where(eq(assistantReplies.organizationId, demoOrg));
      return { totalCalls: c.n, totalMessages: m.n, avgResponseTime: `${(Number(r.ms) / 1000).toFixed(1)}s` };
    };
    const [oneCall] = await db.select({ id: calls.id }).from(calls).where(eq(calls.organizationId, demoOrg)).limit(1);
    await db.delete(calls).where(eq(calls.id, oneCall.id));
    const [aText] = await db.select().from(messages).where(eq(messages.organizationId, demoOrg)).limit(1);
    await db.insert(messages).values([1, 2, 3].map(() => ({ ...aText, id: crypto.randomUUID(), providerMessageSid: null })));
    const [aReply] = await db.select({ id: assistantReplies.id }).from(assistantReplies).where(eq(assistantReplies.organizationId, demoOrg)).limit(1);
    await db.update(assistantReplies).set({ totalMs: 60_000 }).where(eq(assistantReplies.id, aReply.id));
    const out = await call(stats, "GET", "/api/dashboard/stats", { sessionId: res.body.sessionId });
    expect(out.body).toMatchObject(await fromRows());
  });

  it("shows a new organization its own figures, not the demo's: no calls or texts yet, its starter assistant active", async () => {
    const account = await registerTestUser();
    const out = await call(stats, "GET", "/api/dashboard/stats", { sessionId: account.sessionId });
    expect(out.body).toEqual({ totalCalls: 0, activeAssistants: 1, totalMessages: 0, avgResponseTime: "—" });
  });

  it("answers 401 without a session", async () => {
    const out = await call(stats, "GET", "/api/dashboard/stats");
    expect(out.status).toBe(401);
    expect(out.text).toContain("Unauthorized");
  });
});
