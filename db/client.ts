import fs from "node:fs";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema";
import { migrationsFolder } from "./migrations-folder";

/**
 * Opens and migrates the database. `db/` knows nothing of the app: the caller says where the
 * database is (lib/database.ts reads the environment and memoizes the handle).
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
  | { driver: "pglite"; dataDir: string };

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

async function openPglite(dataDir: string): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { btree_gist } = await import("@electric-sql/pglite/contrib/btree_gist");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  // btree_gist: exclusion constraints over (resource, time range) keep bookings from overlapping.
  const client = await PGlite.create(dataDir, { extensions: { btree_gist } });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  // Both drivers expose the same query builder; the node-postgres type is the one we program against.
  embedded.set(db as unknown as Db, client as unknown as EmbeddedClient);
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close(), listen: (channel, onNotify) => client.listen(channel, onNotify) };
}

export function openDatabase(config: DatabaseConfig): Promise<DbHandle> {
  return config.driver === "postgres" ? openPostgres(config.url, config.poolMax) : openPglite(config.dataDir);
}
