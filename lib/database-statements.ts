import "server-only";
import { Placeholder, type SQL } from "drizzle-orm";
import { embeddedClient, type Db } from "@/db/client";

/**
 * A statement planned once per database handle and run by name with `sql.placeholder` values.
 *
 * On a PostgreSQL server this is drizzle's prepared statement (node-postgres names it, and each pool
 * connection plans it once). Embedded PGlite's driver sends every statement unnamed, so it is parsed
 * and planned again on each run — for the call history page, planning took longer than running it
 * (0.9 of 1.4 ms; docs/benchmarks.md). There the statement is `PREPARE`d in PGlite's one session and
 * run with `EXECUTE name('…', …)`: a utility statement takes no bound parameters, so the values are
 * written as SQL literals (strings quoted with every `'` doubled, under standard_conforming_strings,
 * which is checked when the statement is prepared; numbers only when finite).
 *
 * For selections of SQL expressions the driver decodes itself (e.g. one JSON value): on PGlite the
 * row is read positionally into the selection's keys, without drizzle's column mappers.
 */
type Selecting<Row> = {
  _: { selectedFields: Record<string, unknown> };
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
};

export type PreparedStatement<Row> = { execute(values: Record<string, unknown>): Promise<Row[]> };

export function preparedStatement<Row>(db: Db, name: string, query: Selecting<Row>): PreparedStatement<Row> {
  const client = embeddedClient(db);
  if (!client) return query.prepare(name);
  const { sql: text, params } = query.toSQL();
  for (const key of Object.values(query._.selectedFields)) {
    if (!isSql(key)) throw new Error(`preparedStatement ${name}: on PGlite only SQL expressions can be selected`);
  }
  const keys = Object.keys(query._.selectedFields);
  const names = params.map((p) => {
    if (!(p instanceof Placeholder)) throw new Error(`preparedStatement ${name}: every value must be a sql.placeholder`);
    return p.name;
  });
  let prepared: Promise<unknown> | null = null;
  const prepare = async () => {
    const { rows } = await client.query<{ standard_conforming_strings: string }>("show standard_conforming_strings");
    if (rows[0]?.standard_conforming_strings !== "on") throw new Error("preparedStatement: standard_conforming_strings must be on");
    await client.exec(`PREPARE ${name} AS ${text}`);
  };
  return {
    async execute(values) {
      prepared ??= prepare().catch((error: unknown) => {
        prepared = null;
        throw error;
      });
      await prepared;
      const run = `EXECUTE ${name}(${names.map((n) => literal(values[n])).join(", ")})`;
      const { rows } = await client.query<unknown[]>(run, [], { rowMode: "array" });
      return rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i]])) as Row);
    },
  };
}

/** A value as an SQL literal for EXECUTE's arguments. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("preparedStatement: a number value must be finite");
    return String(value);
  }
  if (typeof value === "string") {
    if (value.includes("\0")) throw new Error("preparedStatement: text cannot hold a NUL character");
    return `'${value.replaceAll("'", "''")}'`;
  }
  throw new Error(`preparedStatement: unsupported value type ${typeof value}`);
}

function isSql(value: unknown): value is SQL {
  return typeof value === "object" && value !== null && "queryChunks" in value;
}
