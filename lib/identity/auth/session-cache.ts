import "server-only";
import type { Db } from "@/db/client";
import { onDatabaseOpen } from "@/lib/platform/database";

/**
 * Signed-in sessions kept in memory, for embedded PGlite only (docs/benchmarks.md, "HTTP routes").
 *
 * PGlite runs inside this process and nothing else can write to it, and every change to a session or
 * a user row raises a NOTIFY (migration 0020, trigger `switchboard_auth_changed`) that PGlite hands to
 * the listener before the writing statement returns. So a cached row is always the row the database
 * holds: a sign-out, a suspended account, a changed role or an expiry pushed on is seen by the very next
 * request. Nothing is cached for PostgreSQL servers, where other instances write too and a
 * notification arrives later than the write.
 *
 * A lookup that was in flight while a change was announced is not kept (the generation moved on), so
 * an old row can never be stored after the news that replaced it.
 */
export type SessionCache<Row> = {
  get(token: string): Row | undefined;
  /** Runs the lookup and keeps its row unless a change was announced meanwhile. */
  load(token: string, lookup: () => Promise<Row | undefined>): Promise<Row | undefined>;
  stats(): { hits: number; misses: number; invalidations: number; size: number };
};

/** Enough for every session a busy single-process install sees; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

type Cache = {
  rows: Map<string, unknown>;
  generation: number;
  hits: number;
  misses: number;
  invalidations: number;
};

const globalForCache = globalThis as unknown as { __switchboardSessionCaches?: WeakMap<Db, Cache> };
const caches = (globalForCache.__switchboardSessionCaches ??= new WeakMap());

export const AUTH_CHANNEL = "switchboard_auth";

const globalForWatch = globalThis as unknown as { __switchboardSessionWatches?: WeakMap<Db, Promise<void>> };
const watches = (globalForWatch.__switchboardSessionWatches ??= new WeakMap());

/**
 * Starts caching sessions for this database handle, forgetting them all on every announced change.
 * Once per handle for the whole process: every route bundle's copy of this module shares the
 * cache and the pending watch through globalThis, so a second caller waits for the first listener.
 */
export function watchSessions(db: Db, listen: (channel: string, onNotify: (payload: string) => void) => Promise<unknown>): Promise<void> {
  let watch = watches.get(db);
  if (!watch) {
    const cache: Cache = { rows: new Map(), generation: 0, hits: 0, misses: 0, invalidations: 0 };
    watch = listen(AUTH_CHANNEL, () => {
      cache.generation += 1;
      cache.invalidations += 1;
      cache.rows.clear();
    }).then(() => {
      caches.set(db, cache);
    });
    watches.set(db, watch);
    watch.catch(() => watches.delete(db));
  }
  return watch;
}

// Embedded PGlite tells this process of every session and user change as it happens: sessions can be
// kept in memory exactly. The database runs this on each handle it opens (or has open) once loaded;
// each bundle's copy registers it, and watchSessions starts one listener per handle all the same.
onDatabaseOpen(async (handle) => {
  if (handle.listen) await watchSessions(handle.db, handle.listen);
});

/** The handle's session cache, or null when sessions are not cached for it (a PostgreSQL server). */
export function sessionCache<Row>(db: Db): SessionCache<Row> | null {
  const cache = caches.get(db);
  if (!cache) return null;
  return {
    get(token) {
      const row = cache.rows.get(token) as Row | undefined;
      if (row !== undefined) cache.hits += 1;
      return row;
    },
    async load(token, lookup) {
      cache.misses += 1;
      const generation = cache.generation;
      const row = await lookup();
      if (row !== undefined && cache.generation === generation) {
        if (cache.rows.size >= MAX_ENTRIES) cache.rows.clear();
        cache.rows.set(token, row);
      }
      return row;
    },
    stats: () => ({ hits: cache.hits, misses: cache.misses, invalidations: cache.invalidations, size: cache.rows.size }),
  };
}
