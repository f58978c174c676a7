import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The migrated embedded database every test file starts from. Creating a PGlite cluster and running
 * the migrations costs each file ~8 s (docs/benchmarks.md); loading a dump of a migrated cluster
 * ~2 s. The dump is built once, kept under node_modules/.cache keyed by the migrations and the PGlite
 * version (a changed migration builds a new one), and each file still gets its own in-memory copy.
 */
export async function pgliteTemplate(rootDir) {
  const migrationsFolder = path.join(rootDir, "db", "migrations");
  const hash = crypto.createHash("sha256");
  const pglite = path.join(rootDir, "node_modules", "@electric-sql", "pglite", "package.json");
  hash.update(JSON.parse(fs.readFileSync(pglite, "utf8")).version);
  for (const file of listFiles(migrationsFolder)) hash.update(file).update(fs.readFileSync(path.join(migrationsFolder, file)));
  const dir = path.join(rootDir, "node_modules", ".cache", "switchboard-tests");
  const file = path.join(dir, `pglite-${hash.digest("hex").slice(0, 16)}.tar.gz`);
  if (fs.existsSync(file)) return file;

  const { PGlite } = await import("@electric-sql/pglite");
  const { btree_gist } = await import("@electric-sql/pglite/contrib/btree_gist");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // The same extensions db/client.ts opens with: the migrations create them.
  const client = await PGlite.create("memory://", { extensions: { btree_gist, pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder });
    const dump = await client.dumpDataDir("gzip");
    fs.mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a run started alongside never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

/** Migrates the run's PostgreSQL database once, before the workers start. */
export async function migratePostgres(url, rootDir) {
  const pg = (await import("pg")).default;
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: path.join(rootDir, "db", "migrations") });
  } finally {
    await client.end();
  }
}

function listFiles(dir, prefix = "") {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)]))
    .sort();
}
