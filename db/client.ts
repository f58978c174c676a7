import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { env } from "@/lib/env";
import * as schema from "./schema";
import { migrationsFolder } from "./migrations-folder";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Handle = { db: Db; driver: "postgres" | "pglite"; close: () => Promise<void> };

/** Where embedded PGlite keeps its files. `memory://` keeps nothing (tests). */
export function pgliteDataDir(): string {
  const dir = env.PGLITE_DATA_DIR ?? path.join(".data", "pglite");
  return dir.startsWith("memory://") ? dir : path.resolve(/*turbopackIgnore: true*/ process.cwd(), dir);
}

async function openPostgres(url: string): Promise<Handle> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
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

async function openPglite(dataDir: string): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  // Both drivers expose the same query builder; the node-postgres type is the one we program against.
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

const globalForDb = globalThis as unknown as { __switchboardDb?: Promise<Handle> };

function open(): Promise<Handle> {
  return env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openPglite(pgliteDataDir());
}

/** The migrated database. Opened once per process; a failed open is retried on the next call. */
export function getDbHandle(): Promise<Handle> {
  if (!globalForDb.__switchboardDb) {
    const pending = open();
    globalForDb.__switchboardDb = pending;
    pending.catch(() => {
      if (globalForDb.__switchboardDb === pending) globalForDb.__switchboardDb = undefined;
    });
  }
  return globalForDb.__switchboardDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

export async function closeDb(): Promise<void> {
  const pending = globalForDb.__switchboardDb;
  globalForDb.__switchboardDb = undefined;
  if (pending) await (await pending).close();
}
