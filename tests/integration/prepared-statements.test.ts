import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/database";
import { literal, preparedStatement } from "@/lib/database-statements";

// Statements planned once per handle (lib/database-statements.ts): drizzle's named statements on a
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
