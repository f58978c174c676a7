import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { GET as history } from "@/app/api/call-history/route";
import { GET as callDetail } from "@/app/api/calls/[id]/route";
import { GET as messageDetail } from "@/app/api/messages/[id]/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { calls, messages, phoneNumbers, voiceAssistants } from "@/db/schema";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

type Fixture = {
  kind: "call" | "message" | "voicemail";
  id: string;
  at: Date;
  direction: "inbound" | "outbound";
  status: string;
  isSpam: boolean;
  phoneNumberId: string | null;
};

const BASE = Date.parse("2026-10-01T12:00:00.000Z");
const MINUTE = 60_000;

function expectedOrder(rows: Fixture[]): string[] {
  return [...rows]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((r) => r.id);
}

async function walk(account: TestAccount, query: Record<string, string>, limit: number) {
  const ids: string[] = [];
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs = new URLSearchParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res: { status: number; body: { items: Record<string, unknown>[]; nextCursor: string | null } } = await call(
      history,
      "GET",
      `/api/call-history?${qs}`,
      { sessionId: account.sessionId },
    );
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    for (const item of res.body.items) {
      ids.push(item.id as string);
      items.push(item);
    }
    cursor = res.body.nextCursor;
    pages += 1;
    if (pages > 100) throw new Error("pagination does not end");
  } while (cursor);
  return { ids, items, pages };
}

describe("call history", () => {
  let a: TestAccount;
  let b: TestAccount;
  const fixtures: Fixture[] = [];
  const bFixtures: Fixture[] = [];
  let numA1: string;
  let numA2: string;
  let assistantId: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([registerTestUser(), registerTestUser()]);
    const db = await getDb();
    numA1 = crypto.randomUUID();
    numA2 = crypto.randomUUID();
    const numB = crypto.randomUUID();
    const unique = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    await db.insert(phoneNumbers).values([
      { id: numA1, organizationId: a.organizationId, phoneNumber: unique(), friendlyName: "Main line" },
      { id: numA2, organizationId: a.organizationId, phoneNumber: unique(), friendlyName: "After-hours" },
      { id: numB, organizationId: b.organizationId, phoneNumber: unique(), friendlyName: "B line" },
    ]);
    assistantId = crypto.randomUUID();
    await db.insert(voiceAssistants).values({ id: assistantId, organizationId: a.organizationId, name: "Front Desk" });

    const callStatuses = ["completed", "missed", "voicemail", "completed", "failed"] as const;
    for (let i = 0; i < 30; i++) {
      // Every third call shares its minute with the previous one: ties are broken by id.
      const at = new Date(BASE - Math.floor(i / 3) * 3 * MINUTE - (i % 3 === 2 ? 0 : (i % 3) * MINUTE));
      const status = callStatuses[i % callStatuses.length];
      const row = {
        id: crypto.randomUUID(),
        organizationId: a.organizationId,
        phoneNumberId: i % 2 === 0 ? numA1 : numA2,
        assistantId,
        direction: (i % 4 === 0 ? "outbound" : "inbound") as "inbound" | "outbound",
        fromNumber: "+15035550100",
        toNumber: "+15035550142",
        callerName: `Caller ${i}`,
        status,
        startedAt: at,
        durationSeconds: 30 + i,
        transcript: [
          { speaker: "caller" as const, text: "Hi, can I book a cleaning?", at: at.toISOString() },
          { speaker: "assistant" as const, text: "Of course, Tuesday at 10?", at: at.toISOString() },
        ],
        summary: `Call ${i}`,
        sentiment: "positive" as const,
        isSpam: i % 7 === 0,
        recordingUrl: i === 0 ? "https://example.com/recording.mp3" : null,
      };
      await db.insert(calls).values(row);
      fixtures.push({
        kind: status === "voicemail" ? "voicemail" : "call",
        id: row.id,
        at,
        direction: row.direction,
        status,
        isSpam: row.isSpam,
        phoneNumberId: row.phoneNumberId,
      });
    }
    for (let i = 0; i < 15; i++) {
      // Some texts share a timestamp with a call (the merge must break the tie the same way as SQL).
      const at = new Date(BASE - i * 4 * MINUTE);
      const row = {
        id: crypto.randomUUID(),
        organizationId: a.organizationId,
        phoneNumberId: i % 3 === 0 ? numA2 : numA1,
        direction: (i % 2 === 0 ? "inbound" : "outbound") as "inbound" | "outbound",
        fromNumber: "+15035550100",
        toNumber: "+15035550142",
        body: `Text ${i}`,
        status: i % 2 === 0 ? ("received" as const) : ("delivered" as const),
        isSpam: i === 4,
        createdAt: at,
      };
      await db.insert(messages).values(row);
      fixtures.push({ kind: "message", id: row.id, at, direction: row.direction, status: row.status, isSpam: row.isSpam, phoneNumberId: row.phoneNumberId });
    }
    for (let i = 0; i < 4; i++) {
      const id = crypto.randomUUID();
      const at = new Date(BASE - i * MINUTE);
      await db.insert(calls).values({
        id, organizationId: b.organizationId, phoneNumberId: numB, direction: "inbound", fromNumber: "+1", toNumber: "+2",
        status: "completed", startedAt: at,
      });
      bFixtures.push({ kind: "call", id, at, direction: "inbound", status: "completed", isSpam: false, phoneNumberId: numB });
      const mid = crypto.randomUUID();
      await db.insert(messages).values({
        id: mid, organizationId: b.organizationId, direction: "inbound", fromNumber: "+1", toNumber: "+2", body: "B text",
        status: "received", createdAt: at,
      });
      bFixtures.push({ kind: "message", id: mid, at, direction: "inbound", status: "received", isSpam: false, phoneNumberId: null });
    }
  });

  it("walks every row exactly once, newest first, across pages", async () => {
    for (const limit of [1, 7, 25, 100]) {
      const { ids } = await walk(a, {}, limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expectedOrder(fixtures));
    }
  });

  it("keeps microsecond timestamps apart (the cursor is exact)", async () => {
    const user = await registerTestUser();
    const db = await getDb();
    const ids = ["m-a", "m-b", "m-c"].map((p) => `${p}-${crypto.randomUUID()}`);
    for (const [i, id] of ids.entries()) {
      await db.execute(sql`insert into "call" (id, organization_id, direction, from_number, to_number, status, started_at)
        values (${id}, ${user.organizationId}, 'inbound', '+1', '+2', 'completed', ${`2026-10-01 12:00:00.12345${i}+00`}::timestamptz)`);
    }
    const { ids: walked } = await walk(user, {}, 1);
    expect(walked).toEqual([...ids].reverse());
  });

  it("shapes each kind of item", async () => {
    const res = await call(history, "GET", "/api/call-history?limit=100", { sessionId: a.sessionId });
    const items: Record<string, unknown>[] = res.body.items;
    const recorded = items.find((i) => i.id === fixtures[0].id)!;
    expect(recorded).toMatchObject({
      kind: "call",
      direction: "outbound",
      from: "+15035550100",
      to: "+15035550142",
      callerName: "Caller 0",
      status: "completed",
      durationSeconds: 30,
      summary: "Call 0",
      sentiment: "positive",
      isSpam: true,
      hasRecording: true,
      phoneNumber: { id: numA1, friendlyName: "Main line" },
    });
    expect(recorded.at).toBe(fixtures[0].at.toISOString());
    const text = items.find((i) => i.kind === "message")!;
    expect(text).toMatchObject({ body: expect.stringMatching(/^Text /), isSpam: expect.any(Boolean) });
    expect(text).not.toHaveProperty("durationSeconds");
    expect(items.some((i) => i.kind === "voicemail" && i.status === "voicemail")).toBe(true);
  });

  const filters: [string, Record<string, string>, (f: Fixture) => boolean][] = [
    ["type=call", { type: "call" }, (f) => f.kind === "call"],
    ["type=voicemail", { type: "voicemail" }, (f) => f.kind === "voicemail"],
    ["type=message", { type: "message" }, (f) => f.kind === "message"],
    ["direction=outbound", { direction: "outbound" }, (f) => f.direction === "outbound"],
    ["direction=inbound&type=message", { direction: "inbound", type: "message" }, (f) => f.direction === "inbound" && f.kind === "message"],
    ["status=missed", { status: "missed" }, (f) => f.status === "missed"],
    ["status=failed (calls)", { status: "failed" }, (f) => f.status === "failed"],
    ["status=delivered (texts)", { status: "delivered" }, (f) => f.status === "delivered"],
    ["spam=true", { spam: "true" }, (f) => f.isSpam],
    ["spam=false", { spam: "false" }, (f) => !f.isSpam],
    ["phoneNumberId", { phoneNumberId: "numA2" }, (f) => f.phoneNumberId === "numA2"],
    [
      "from/to",
      { from: new Date(BASE - 20 * MINUTE).toISOString(), to: new Date(BASE - 6 * MINUTE).toISOString() },
      (f) => f.at.getTime() >= BASE - 20 * MINUTE && f.at.getTime() <= BASE - 6 * MINUTE,
    ],
  ];

  it.each(filters)("filter %s narrows to exactly the matching rows", async (_name, rawQuery, predicate) => {
    const query = { ...rawQuery };
    if (query.phoneNumberId === "numA2") query.phoneNumberId = numA2;
    const match = (f: Fixture) => predicate(f.phoneNumberId === numA2 ? { ...f, phoneNumberId: "numA2" } : f);
    const expected = expectedOrder(fixtures.filter(match));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(fixtures.length);
    const { ids } = await walk(a, query, 4);
    expect(ids).toEqual(expected);
  });

  it("accepts empty parameters as not given", async () => {
    const res = await call(history, "GET", "/api/call-history?cursor=&limit=25&type=&from=&to=&phoneNumberId=&direction=&status=&spam=", {
      sessionId: a.sessionId,
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(25);
    expect(typeof res.body.nextCursor).toBe("string");
  });

  it.each([
    ["cursor", "cursor=not-a-cursor"],
    ["cursor", `cursor=${Buffer.from(JSON.stringify({ t: "1; drop table call", id: "x" })).toString("base64url")}`],
    ["type", "type=fax"],
    ["direction", "direction=sideways"],
    ["spam", "spam=maybe"],
    ["from", "from=yesterday"],
    ["limit", "limit=1000"],
    ["status", "status=exploded"],
  ])("answers 400 naming %s for a bad value (%s)", async (field, qs) => {
    const res = await call(history, "GET", `/api/call-history?${qs}`, { sessionId: a.sessionId });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(field);
  });

  it("answers 401 without a session", async () => {
    expect((await call(history, "GET", "/api/call-history")).status).toBe(401);
    expect((await call(callDetail, "GET", `/api/calls/${fixtures[0].id}`, { params: { id: fixtures[0].id } })).status).toBe(401);
    const messageId = fixtures.find((f) => f.kind === "message")!.id;
    expect((await call(messageDetail, "GET", `/api/messages/${messageId}`, { params: { id: messageId } })).status).toBe(401);
  });

  it("never lists another organization's rows", async () => {
    const { ids } = await walk(b, {}, 3);
    expect(ids).toEqual(expectedOrder(bFixtures));
    const aIds = new Set(fixtures.map((f) => f.id));
    expect(ids.some((id) => aIds.has(id))).toBe(false);
    // Even with A's phone number as a filter, B sees nothing of A's.
    const filtered = await walk(b, { phoneNumberId: numA1 }, 10);
    expect(filtered.ids).toEqual([]);
  });

  it("returns a call's detail with transcript, number and assistant", async () => {
    const f = fixtures[0];
    const res = await call(callDetail, "GET", `/api/calls/${f.id}`, { sessionId: a.sessionId, params: { id: f.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: f.id,
      direction: "outbound",
      from: "+15035550100",
      to: "+15035550142",
      callerName: "Caller 0",
      status: "completed",
      startedAt: f.at.toISOString(),
      durationSeconds: 30,
      summary: "Call 0",
      sentiment: "positive",
      isSpam: true,
      recordingUrl: "https://example.com/recording.mp3",
      phoneNumber: { id: numA1, friendlyName: "Main line" },
      assistant: { id: assistantId, name: "Front Desk" },
    });
    expect(res.body.transcript).toEqual([
      expect.objectContaining({ speaker: "caller", text: "Hi, can I book a cleaning?" }),
      expect.objectContaining({ speaker: "assistant", text: "Of course, Tuesday at 10?" }),
    ]);
    expect(res.body).toHaveProperty("intent");
    expect(res.body).toHaveProperty("endedAt");
  });

  it("returns a text's detail", async () => {
    const f = fixtures.find((x) => x.kind === "message")!;
    const res = await call(messageDetail, "GET", `/api/messages/${f.id}`, { sessionId: a.sessionId, params: { id: f.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.id, kind: "message", body: expect.stringMatching(/^Text /), status: f.status });
  });

  it("answers 404 for another organization's call or text, and for unknown ids", async () => {
    const f = fixtures[0];
    const m = fixtures.find((x) => x.kind === "message")!;
    const c1 = await call(callDetail, "GET", `/api/calls/${f.id}`, { sessionId: b.sessionId, params: { id: f.id } });
    expect(c1.status).toBe(404);
    expect(c1.text).not.toContain("Caller 0");
    const m1 = await call(messageDetail, "GET", `/api/messages/${m.id}`, { sessionId: b.sessionId, params: { id: m.id } });
    expect(m1.status).toBe(404);
    const unknown = await call(callDetail, "GET", "/api/calls/nope", { sessionId: a.sessionId, params: { id: "nope" } });
    expect(unknown.status).toBe(404);
    // A text's id is not a call's id.
    const crossed = await call(callDetail, "GET", `/api/calls/${m.id}`, { sessionId: a.sessionId, params: { id: m.id } });
    expect(crossed.status).toBe(404);
  });
});
