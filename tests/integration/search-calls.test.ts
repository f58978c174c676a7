import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/platform/database";
import { searchCalls } from "@/lib/receptionist/call-history/service";
import { registerTestUser } from "../helpers/accounts";

afterAll(() => closeDb());

// MCP search_calls over a history longer than it searches call by call (1,000 calls; then the newest
// 250): older calls are found through the full-text index, the trigram index when no word matches.
describe("searchCalls", () => {
  let org: string;
  let other: string;
  const NOW = Date.parse("2026-10-01T12:00:00.000Z");

  beforeAll(async () => {
    const db = await getDb();
    org = (await registerTestUser()).organizationId;
    other = (await registerTestUser()).organizationId;
    // 1,500 calls, call n started n minutes before NOW, each saying "reference n"; a few with more.
    await db.execute(sql`
      insert into "call" (id, organization_id, direction, from_number, to_number, status, started_at, transcript, summary)
      select ${org} || '-' || g, ${org}, 'inbound', '+1555' || lpad(g::text, 7, '0'), '+15550100000', 'completed',
             ${new Date(NOW).toISOString()}::timestamptz - g * interval '1 minute',
             jsonb_build_array(jsonb_build_object('speaker', 'caller', 'text', 'Hello, reference ' || g)),
             case when g in (1200, 1300, 1400) then 'Asked about Invisalign aligners' when g = 1450 then 'Wants the megawhitening offer'
                  when g in (5, 1475) then 'Needs a follow-up visit'
                  when g >= 400 and g % 10 = 0 then 'Booked a followup visit' else 'A call' end
        from generate_series(1, 1500) g`);
    await db.execute(sql`
      insert into "call" (id, organization_id, direction, from_number, to_number, status, started_at, transcript, summary)
      values (${other} || '-1', ${other}, 'inbound', '+15559990000', '+15550100000', 'completed', now(), '[]'::jsonb, 'Asked about Invisalign aligners')`);
  });

  const ids = async (query: string, limit = 20) => (await searchCalls(await getDb(), org, query, limit)).map((c) => c.id.replace(`${org}-`, ""));

  it("finds a common word among the newest calls, newest first, stopping at the limit", async () => {
    expect(await ids("reference 1", 5)).toEqual(["1", "10", "11", "12", "13"]);
  });

  it("finds older calls by their words, newest first, only this organization's", async () => {
    expect(await ids("invisalign")).toEqual(["1200", "1300", "1400"]);
    // The last word is a prefix, as the substring search has always matched: "reference 142" is in 1420–1429.
    expect(await ids("reference 142")).toEqual(["142", "1420", "1421", "1422", "1423", "1424", "1425", "1426", "1427", "1428", "1429"]);
  });

  it("finds a hyphenated phrase in an old call by its words", async () => {
    expect(await ids("follow-up visit")).toEqual(["5", "1475"]);
  });

  it("lists the newest of many older calls holding a word, not the first the index gives", async () => {
    // 108 calls say "followup", none among the newest 250 checked one by one.
    expect(await ids("followup")).toEqual(Array.from({ length: 20 }, (_, i) => String(400 + 10 * i)));
  });

  it("searches a small organization's every call text by text, mid-word too", async () => {
    const found = await searchCalls(await getDb(), other, "visalign", 20);
    expect(found.map((c) => c.id)).toEqual([`${other}-1`]);
  });

  it("finds text that starts mid-word in an old call when no word matches", async () => {
    expect(await ids("WHITENING")).toEqual(["1450"]);
  });

  it("treats % and _ as themselves, and finds nothing for a term no call holds", async () => {
    expect(await ids("100%_sure")).toEqual([]);
    expect(await ids("zebra")).toEqual([]);
  });
});
