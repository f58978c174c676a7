import fs from "node:fs";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema";
import { migrationsFolder } from "./migrations-folder";

/**
 * Opens and migrates the database. `db/` knows nothing of the app: the caller says where the
 * database is (lib/platform/database.ts reads the environment and memoizes the handle).
 */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type DbDriver = "postgres" | "pglite";
export type DbHandle = {
  db: Db;
  driver: DbDriver;
  close: () => Promise<void>;
  /**
   * Embedded PGlite only: LISTEN on a channel of this very database. The process is its only user,
   * so a NOTIFY (from a trigger) reaches the callback before the statement that wrote returns.
   */
  listen?: (channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>;
};

/** The statements an embedded PGlite client runs as they are (its `query` and `exec`). */
export type EmbeddedClient = {
  query<T>(text: string, params?: unknown[], options?: { rowMode?: "array" | "object"; parsers?: Record<number, (value: string) => unknown> }): Promise<{ rows: T[] }>;
  /** The simple-query protocol: one result per statement of `text`. */
  exec<T = Record<string, unknown>>(text: string, options?: { rowMode?: "array" | "object"; parsers?: Record<number, (value: string) => unknown> }): Promise<{ rows: T[] }[]>;
};
// On globalThis: Next bundles this module more than once (instrumentation, each route), and the
// handle opened by one copy must be known to all.
const globalForEmbedded = globalThis as unknown as { __switchboardEmbeddedClients?: WeakMap<Db, EmbeddedClient> };
const embedded = (globalForEmbedded.__switchboardEmbeddedClients ??= new WeakMap<Db, EmbeddedClient>());

/** The PGlite client behind a handle's `db`, or undefined on a PostgreSQL server. */
export function embeddedClient(db: Db): EmbeddedClient | undefined {
  return embedded.get(db);
}

export type DatabaseConfig =
  | { driver: "postgres"; url: string; poolMax: number }
  /**
   * `template`: a PGlite data directory dump (`dumpDataDir`, a tar file) the database starts from
   * instead of an empty cluster: the tests migrate once and start each file from the dump
   * (tests/setup/pglite-template.mjs). Only for an in-memory `dataDir`.
   */
  | { driver: "pglite"; dataDir: string; template?: string };

async function openPostgres(url: string, poolMax: number): Promise<DbHandle> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new Pool({ connectionString: url, max: poolMax });
  const db = drizzle(pool, { schema });
  // Several instances may start at once: one migrates, the others wait on the lock.
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(72817001)");
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(72817001)").catch(() => undefined);
    client.release();
  }
  return { db, driver: "postgres", close: () => pool.end() };
}

/**
 * The types drizzle reads from text with its own column mappers (timestamps, dates, intervals, and
 * arrays of them, numeric[]): it asks PGlite to leave them as text on every query it sends
 * (drizzle-orm/pglite/session.js). Embedded statements (lib/platform/database-statements.ts) read them alike.
 */
export const TEXT_AS_READ: Record<number, (value: string) => string> = Object.fromEntries(
  [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, (value: string) => value]),
);

type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, unknown> };
type PgliteQueries = {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
  transaction<T>(run: (tx: PgliteQueries) => Promise<T>): Promise<T>;
};

/**
 * What drizzle is given on PGlite: the client, minus the parsers drizzle passes with every query.
 * PGlite merges a query's parsers into its own map — one entry per type, ~250 with the array types —
 * on each query that brings any: ~150 µs of the event loop per statement (an EXECUTE: 264 µs with
 * drizzle's parsers, 109 µs without; docs/benchmarks.md). The client's map holds TEXT_AS_READ once
 * instead, so the rows are the same.
 */
class ParsersOnceClient {
  constructor(private readonly client: PgliteQueries) {}

  query(text: string, params?: unknown[], options?: QueryOptions) {
    return this.client.query(text, params, withoutTextParsers(options));
  }

  transaction<T>(run: (tx: ParsersOnceClient) => Promise<T>): Promise<T> {
    return this.client.transaction((tx) => run(new ParsersOnceClient(tx)));
  }
}

/** The options without their parsers when those only leave TEXT_AS_READ's types as text. */
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || !Object.keys(options.parsers).every((oid) => oid in TEXT_AS_READ)) return options;
  const rest = { ...options };
  delete rest.parsers;
  return rest;
}

async function openPglite(dataDir: string, template?: string): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { btree_gist } = await import("@electric-sql/pglite/contrib/btree_gist");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  // btree_gist: exclusion constraints over (resource, time range) keep bookings from overlapping.
  // pg_trgm: the trigram index of call search (MCP search_calls).
  const extensions = { btree_gist, pg_trgm };
  const client =
    template && dataDir.startsWith("memory://")
      ? await PGlite.create({ dataDir, extensions, loadDataDir: new Blob([fs.readFileSync(template)]) })
      : await PGlite.create(dataDir, { extensions });
  Object.assign(client.parsers, TEXT_AS_READ);
  // Typed as the PGlite it stands for: drizzle calls only its query and transaction.
  const db = drizzle(new ParsersOnceClient(client as unknown as PgliteQueries) as unknown as typeof client, { schema });
  // From a template this finds every migration applied and returns (~10 ms).
  await migrate(db, { migrationsFolder });
  // Both drivers expose the same query builder; the node-postgres type is the one we program against.
  embedded.set(db as unknown as Db, client as unknown as EmbeddedClient);
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close(), listen: (channel, onNotify) => client.listen(channel, onNotify) };
}

export function openDatabase(config: DatabaseConfig): Promise<DbHandle> {
  return config.driver === "postgres" ? openPostgres(config.url, config.poolMax) : openPglite(config.dataDir, config.template);
}
