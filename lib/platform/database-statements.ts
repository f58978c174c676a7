import "server-only";
import * as drizzle from "drizzle-orm";
import { getTableColumns, Placeholder, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { embeddedClient, type Db, type DbOrTx } from "@/db/client";
import { env } from "@/lib/platform/env";

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
 * (the embedded client's own parsers do that: TEXT_AS_READ in db/client.ts) for the columns' own
 * mappers (a timestamp column becomes a Date, a jsonb column its value).
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

/**
 * The name a statement goes to a PostgreSQL server under: its own, or "" (unnamed, parsed on each run)
 * with DATABASE_NAMED_STATEMENTS=false, for a pooler in transaction mode that cannot keep named
 * statements (PgBouncer < 1.21; docs/deploy.md "Connections and a pooler").
 */
export function serverStatementName(name: string): string {
  return env.DATABASE_NAMED_STATEMENTS ? name : "";
}

export function preparedStatement<Row>(db: DbOrTx, name: string, build: () => Selecting<Row>): PreparedStatement<Row> {
  // Inside a transaction: drizzle's statement on the transaction's connection (named on PostgreSQL).
  if (!isHandle(db)) return build().prepare(serverStatementName(name));
  return registered(db, name, () => {
    const client = embeddedClient(db);
    return client ? embeddedStatement<Row>(client, name, build()) : build().prepare(serverStatementName(name));
  });
}

/** The handle's statement of that name, created by `create` the first time it is asked for. */
function registered<Row>(db: Db, name: string, create: () => PreparedStatement<Row>): PreparedStatement<Row> {
  const registry = (globalForStatements.__switchboardStatements ??= new WeakMap());
  let byName = registry.get(db);
  if (!byName) {
    byName = new Map();
    registry.set(db, byName);
  }
  let statement = byName.get(name) as PreparedStatement<Row> | undefined;
  if (!statement) {
    statement = create();
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

function embeddedStatement<Row>(client: NonNullable<ReturnType<typeof embeddedClient>>, name: string, query: Selecting<Row>): PreparedStatement<Row> {
  const { sql: text, params } = query.toSQL();
  const fields = orderSelectedFields(query._.selectedFields);
  const names = placeholderNames(name, params);
  const run = preparedOnce(client, name, text);
  return {
    async execute(values) {
      await run();
      const statement = `EXECUTE ${name}(${names.map((n) => literal(values[n])).join(", ")})`;
      // The simple-query protocol: one message into PGlite instead of five (parse, describe, bind,
      // execute, sync), the same rows (text values through the client's parsers).
      const [{ rows }] = await client.exec<unknown[]>(statement, { rowMode: "array" });
      return rows.map((row) => mapResultRow<Row>(fields, row, undefined));
    },
  };
}

/** The placeholders' names in the order of the statement's $1, $2, …: every value must be one. */
function placeholderNames(name: string, params: unknown[]): string[] {
  return params.map((p) => {
    if (!(p instanceof Placeholder)) throw new Error(`preparedStatement ${name}: every value must be a sql.placeholder`);
    return p.name;
  });
}

/** `PREPARE name AS text` in PGlite's one session, once (a failed attempt is tried again next time). */
function preparedOnce(client: NonNullable<ReturnType<typeof embeddedClient>>, name: string, text: string): () => Promise<void> {
  let prepared: Promise<void> | null = null;
  const prepare = async () => {
    const { rows } = await client.query<{ standard_conforming_strings: string }>("show standard_conforming_strings");
    if (rows[0]?.standard_conforming_strings !== "on") throw new Error("preparedStatement: standard_conforming_strings must be on");
    await client.exec(`PREPARE ${name} AS ${text}`);
  };
  return () => {
    if (!prepared) {
      const attempt = prepare();
      prepared = attempt;
      attempt.catch(() => {
        if (prepared === attempt) prepared = null;
      });
    }
    return prepared;
  };
}

/**
 * A raw SQL statement (one that writes, say: drizzle's query builders cannot express it) planned
 * once per embedded PGlite handle. `build(value)` writes the statement with `value("name")` where
 * each value goes; the result is `{ execute(values) }`, resolving to the rows as `db.execute` gives
 * them (objects by column name, timestamps as text).
 *
 * On PGlite the statement is `PREPARE`d once with `sql.placeholder`s and run with `EXECUTE`, as
 * preparedStatement does: a credit spend planned afresh took ~2.5 ms of the event loop's CPU, the same
 * statement `EXECUTE`d ~0.4 ms (docs/benchmarks.md). On a PostgreSQL server, and inside any
 * transaction, it runs as it is written, the values bound as parameters (planning there happens in
 * the server's process, not on the event loop).
 */
export function preparedSql<Row>(db: DbOrTx, name: string, build: (value: (name: string) => unknown) => drizzle.SQL): PreparedStatement<Row> {
  const direct: () => PreparedStatement<Row> = () => ({
    async execute(values) {
      const result = await db.execute(build((key) => valueOf(values, key)));
      return (result as unknown as { rows: Row[] }).rows;
    },
  });
  if (!isHandle(db)) return direct();
  return registered(db, name, () => {
    const client = embeddedClient(db);
    if (!client) return direct();
    const dialect = (db as unknown as { dialect: { sqlToQuery(query: drizzle.SQL): { sql: string; params: unknown[] } } }).dialect;
    return embeddedRaw<Row>(client, name, dialect.sqlToQuery(build((key) => sql.placeholder(key))));
  });
}

/**
 * `insert into <table> (<every column>) values (<value(key)>, …)`, a value for each column by its schema
 * key, for preparedSql: each value takes its column's type (a timestamp as ISO text, jsonb as JSON text).
 */
export function insertEveryColumn(table: PgTable, value: (key: string) => unknown): drizzle.SQL {
  const columns = Object.entries(getTableColumns(table));
  return sql`insert into ${table} (${sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `)})
    values (${sql.join(columns.map(([key]) => sql`${value(key)}`), sql`, `)})`;
}

function valueOf(values: Record<string, unknown>, key: string): unknown {
  if (!(key in values)) throw new Error(`preparedSql: no value for "${key}"`);
  return values[key];
}

function embeddedRaw<Row>(client: NonNullable<ReturnType<typeof embeddedClient>>, name: string, query: { sql: string; params: unknown[] }): PreparedStatement<Row> {
  const names = placeholderNames(name, query.params);
  const run = preparedOnce(client, name, query.sql);
  return {
    async execute(values) {
      await run();
      const text = `EXECUTE ${name}(${names.map((n) => literal(valueOf(values, n))).join(", ")})`;
      const [{ rows }] = await client.exec<Row>(text, { rowMode: "object" });
      return rows;
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
