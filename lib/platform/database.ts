import "server-only";
import path from "node:path";
import { openDatabase, type Db, type DbHandle } from "@/db/client";
import { env } from "@/lib/platform/env";

export type { Db, DbHandle, DbOrTx, Tx } from "@/db/client";

/**
 * The process's database: node-postgres when DATABASE_URL is set, else embedded PGlite under
 * `.data/pglite` (or PGLITE_DATA_DIR; `memory://` keeps nothing, for tests). Opened and migrated
 * once per process. Route handlers get it from the route wrapper (lib/identity/http/route.ts); scripts,
 * jobs and server components call getDb().
 */
export function pgliteDataDir(): string {
  const dir = env.PGLITE_DATA_DIR ?? path.join(".data", "pglite");
  return dir.startsWith("memory://") ? dir : path.resolve(/*turbopackIgnore: true*/ process.cwd(), dir);
}

/** What a context above does with each handle as it opens (identity: keep sessions in memory). */
export type OpenHook = (handle: DbHandle) => Promise<void> | void;

const globalForDb = globalThis as unknown as { __switchboardDb?: Promise<DbHandle>; __switchboardDbOpenHooks?: Set<OpenHook> };
const openHooks = (globalForDb.__switchboardDbOpenHooks ??= new Set());

/**
 * Registers a hook run on every handle as it opens, before the handle is handed out, and at once on a
 * handle already open. The database knows no feature: the one that needs the handle registers itself
 * (lib/identity/auth/session-cache.ts).
 */
export function onDatabaseOpen(hook: OpenHook): void {
  if (openHooks.has(hook)) return;
  openHooks.add(hook);
  const pending = globalForDb.__switchboardDb;
  if (pending) void pending.then(hook).catch(() => {});
}

async function open(): Promise<DbHandle> {
  const handle = await (env.DATABASE_URL
    ? openDatabase({ driver: "postgres", url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX })
    : openDatabase({ driver: "pglite", dataDir: pgliteDataDir(), template: env.PGLITE_TEMPLATE }));
  for (const hook of openHooks) await hook(handle);
  return handle;
}

/** The migrated database. Opened once per process; a failed open is retried on the next call. */
export function getDbHandle(): Promise<DbHandle> {
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
