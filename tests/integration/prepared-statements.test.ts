import { eq, sql } from "drizzle-orm";
import { embeddedClient } from "@/db/client";
import { organizations } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { literal, preparedSql, preparedStatement } from "@/lib/platform/database-statements";
import { registerTestUser } from "@/tests/helpers/accounts";

// Statements planned once per handle (lib/platform/database-statements.ts): drizzle's named statements on a
// PostgreSQL server, PREPARE / EXECUTE with literal values on embedded PGlite. Either way a value is
// data, never SQL.

afterAll(() => closeDb());

describe("prepared statements", () => {
  it("run with their values, however they are quoted, again and again", async () => {
    const db = await getDb();
    const echo = preparedStatement<{ text: string; n: number }>(db, "switchboard_test_echo", () =>
      db.select({ text: sql<string>`${sql.placeholder("text")}::text`, n: sql<number>`${sql.placeholder("n")}::int + 1` }).from(sql`(select 1) as one`),
    );
    expect(preparedStatement(db, "switchboard_test_echo", () => { throw new Error("built twice"); })).toBe(echo);
    for (const text of ["plain", "it's", "'); drop table \"user\"; --", "back\\slash", "", "ünïcode ☎"]) {
      expect(await echo.execute({ text, n: 41 })).toEqual([{ text, n: 42 }]);
    }
    const [{ users }] = (await db.execute(sql`select count(*)::int as users from "user"`)).rows as { users: number }[];
    expect(typeof users).toBe("number"); // the table is still there
  });

  it("read columns as drizzle does: timestamps as Dates, jsonb as values, nested selections, in and out of a transaction", async () => {
    const db = await getDb();
    const account = await registerTestUser();
    const profile = { timezone: "Europe/Paris", faqs: [{ question: "It's open?", answer: "Yes" }] };
    await db.update(organizations).set({ businessProfile: profile }).where(eq(organizations.id, account.organizationId));
    const selection = {
      org: { id: organizations.id, profile: organizations.businessProfile, createdAt: organizations.createdAt },
      tier: organizations.subscriptionTier,
      named: sql<boolean>`${organizations.name} <> ''`,
    };
    const build = (handle: typeof db) => () => handle.select(selection).from(organizations).where(eq(organizations.id, sql.placeholder("id")));
    const expected = await db.select(selection).from(organizations).where(eq(organizations.id, account.organizationId));
    expect(expected[0].org.createdAt).toBeInstanceOf(Date);

    const statement = preparedStatement(db, "switchboard_test_columns", build(db));
    for (let i = 0; i < 2; i++) expect(await statement.execute({ id: account.organizationId })).toEqual(expected);
    expect(await statement.execute({ id: "no-such-organization" })).toEqual([]);
    await db.transaction(async (tx) => {
      const inTx = preparedStatement(tx, "switchboard_test_columns_tx", build(tx as unknown as typeof db));
      expect(await inTx.execute({ id: account.organizationId })).toEqual(expected);
    });
  });

  it("run raw statements (a write with its returning rows) as db.execute does, in and out of a transaction", async () => {
    const db = await getDb();
    const account = await registerTestUser();
    const rename = (handle: typeof db) =>
      preparedSql<{ name: string; created_at: string; profile: unknown; bumped: number }>(handle, "switchboard_test_rename", (value) => sql`
        update ${organizations} set name = ${value("name")}, business_profile = ${value("profile")}::jsonb
         where id = ${value("id")}
        returning name, created_at, business_profile as profile, ${value("n")}::int + 1 as bumped
      `);
    const statement = rename(db);
    expect(rename(db)).toBe(statement); // planned once per handle
    for (const name of ["Bob's \"Bakery\"", "'); drop table \"user\"; --", "ünïcode ☎"]) {
      const rows = await statement.execute({ id: account.organizationId, name, profile: JSON.stringify({ note: name }), n: 41 });
      const expected = (await db.execute(sql`select name, created_at, business_profile as profile, 42 as bumped from ${organizations} where id = ${account.organizationId}`)).rows;
      expect(rows).toEqual(expected);
      expect(rows[0]).toMatchObject({ name, profile: { note: name }, bumped: 42 });
    }
    expect(await statement.execute({ id: "no-such-organization", name: "x", profile: "{}", n: 1 })).toEqual([]);
    await expect(statement.execute({ id: account.organizationId, name: "x", profile: "{}" })).rejects.toThrow(/no value for "n"/);
    await db.transaction(async (tx) => {
      const [row] = await rename(tx as unknown as typeof db).execute({ id: account.organizationId, name: "In a transaction", profile: "{}", n: 0 });
      expect(row).toMatchObject({ name: "In a transaction", bumped: 1 });
    });
  });

  it("on PGlite, send drizzle's queries without parsers of their own, and read their rows the same", async () => {
    const db = await getDb();
    const client = embeddedClient(db) as unknown as { query: (...args: unknown[]) => Promise<unknown> } | undefined;
    if (!client) return; // a PostgreSQL server: node-postgres parses nothing per query
    const account = await registerTestUser();
    const query = jest.spyOn(client, "query");
    try {
      const [row] = await db
        .select({ createdAt: organizations.createdAt, stamps: sql<string>`array[${organizations.createdAt}]` })
        .from(organizations)
        .where(eq(organizations.id, account.organizationId));
      const raw = (await db.execute(sql`select created_at, array[created_at] as stamps from ${organizations} where id = ${account.organizationId}`)).rows[0] as Record<string, unknown>;
      await db.transaction(async (tx) => {
        const [inTx] = await tx.select({ createdAt: organizations.createdAt }).from(organizations).where(eq(organizations.id, account.organizationId));
        expect(inTx.createdAt).toEqual(row.createdAt);
      });
      // The client's own map leaves timestamps (and arrays of them) as text for drizzle's mappers.
      expect(row.createdAt).toBeInstanceOf(Date);
      expect(typeof raw.created_at).toBe("string");
      expect(new Date(raw.created_at as string)).toEqual(row.createdAt);
      expect(typeof raw.stamps).toBe("string");
      expect(row.stamps).toBe(raw.stamps);
      const sent = query.mock.calls.map((call) => call[2] as { parsers?: unknown } | undefined);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      for (const options of sent) expect(options?.parsers).toBeUndefined();
    } finally {
      query.mockRestore();
    }
  });

  it("write values as SQL literals for EXECUTE", () => {
    expect(literal("it's")).toBe("'it''s'");
    expect(literal(25)).toBe("25");
    expect(literal(null)).toBe("NULL");
    expect(literal(true)).toBe("true");
    expect(() => literal(Number.NaN)).toThrow(/finite/);
    expect(() => literal("a\0b")).toThrow(/NUL/);
    expect(() => literal({})).toThrow(/unsupported/);
  });
});
