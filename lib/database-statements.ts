import "server-only";
import * as drizzle from "drizzle-orm";
import { Placeholder } from "drizzle-orm";
import { embeddedClient, type Db, type DbOrTx } from "@/db/client";

/**
 * A statement planned once per database handle and run by name with `sql.placeholder` values.
 * `preparedStatement(db, name, build)` builds it the first time a handle asks for the name and hands
 * back the same statement after that (a name is one statement: never reuse it for another).
 *
 * On a PostgreSQL server this is drizzle's prepared statement (node-postgres names it, and each pool
 * connection plans it once). Embedded PGlite's driver sends every statement unnamed, so it is parsed
 * and planned again on each run — for the call history page, planning took longer than running it
 * (0.9 of 1.4 ms; docs/benchmarks.md). There the statement is `PREPARE`d in PGlite's one session and
 * run with `EXECUTE name('…', …)`: a utility statement takes no bound parameters, so the values are
 * written as SQL literals (strings quoted with every `'` doubled, under standard_conforming_strings,
 * which is checked when the statement is prepared; numbers only when finite).
 *
 * On PGlite the row is read as drizzle reads it: positionally, timestamps and dates left as text
 * for the columns' own mappers (a timestamp column becomes a Date, a jsonb column its value).
 */
type Selecting<Row> = {
  _: { selectedFields: Record<string, unknown> };
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
};

export type PreparedStatement<Row> = { execute(values: Record<string, unknown>): Promise<Row[]> };

// On globalThis: Next bundles modules more than once (instrumentation, each route), and a handle's
// statements — on PGlite, names in its one session — must be known to every copy.
const globalForStatements = globalThis as unknown as { __switchboardStatements?: WeakMap<Db, Map<string, PreparedStatement<unknown>>> };

export function preparedStatement<Row>(db: DbOrTx, name: string, build: () => Selecting<Row>): PreparedStatement<Row> {
  // Inside a transaction: drizzle's statement on the transaction's connection (named on PostgreSQL).
  if (!isHandle(db)) return build().prepare(name);
  const registry = (globalForStatements.__switchboardStatements ??= new WeakMap());
  let byName = registry.get(db);
  if (!byName) {
    byName = new Map();
    registry.set(db, byName);
  }
  let statement = byName.get(name) as PreparedStatement<Row> | undefined;
  if (!statement) {
    const client = embeddedClient(db);
    statement = client ? embeddedStatement<Row>(client, name, build()) : build().prepare(name);
    byName.set(name, statement as PreparedStatement<unknown>);
  }
  return statement;
}

// drizzle's own row reader, as its sessions use it: exported at run time, marked internal in its types.
type FieldPath = { path: string[]; field: unknown };
const { mapResultRow, orderSelectedFields } = drizzle as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): FieldPath[];
  mapResultRow<Row>(columns: FieldPath[], row: unknown[], joinsNotNullableMap: undefined): Row;
};

/** What drizzle's PGlite session leaves to the columns' mappers (drizzle-orm/pglite/session.js). */
const DRIZZLE_PARSERS: Record<number, (value: string) => unknown> = Object.fromEntries(
  // timestamp, timestamptz, interval, date, and their arrays; numeric[]
  [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, (value: string) => value]),
);

function embeddedStatement<Row>(client: NonNullable<ReturnType<typeof embeddedClient>>, name: string, query: Selecting<Row>): PreparedStatement<Row> {
  const { sql: text, params } = query.toSQL();
  const fields = orderSelectedFields(query._.selectedFields);
  const names = params.map((p) => {
    if (!(p instanceof Placeholder)) throw new Error(`preparedStatement ${name}: every value must be a sql.placeholder`);
    return p.name;
  });
  let prepared: Promise<void> | null = null;
  const prepare = async () => {
    const { rows } = await client.query<{ standard_conforming_strings: string }>("show standard_conforming_strings");
    if (rows[0]?.standard_conforming_strings !== "on") throw new Error("preparedStatement: standard_conforming_strings must be on");
    await client.exec(`PREPARE ${name} AS ${text}`);
  };
  return {
    async execute(values) {
      if (!prepared) {
        const attempt = prepare();
        prepared = attempt;
        attempt.catch(() => {
          if (prepared === attempt) prepared = null;
        });
      }
      await prepared;
      const run = `EXECUTE ${name}(${names.map((n) => literal(values[n])).join(", ")})`;
      // The simple-query protocol: one message into PGlite instead of five (parse, describe, bind,
      // execute, sync), the same rows (text values through the same parsers).
      const [{ rows }] = await client.exec<unknown[]>(run, { rowMode: "array", parsers: DRIZZLE_PARSERS });
      return rows.map((row) => mapResultRow<Row>(fields, row, undefined));
    },
  };
}

/** A database handle, not a transaction of one (drizzle's transactions carry a rollback). */
function isHandle(db: DbOrTx): db is Db {
  return !("rollback" in db);
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
