import pg from "pg";
import { migratePostgres, pgliteTemplate } from "./pglite-template.mjs";

/**
 * Migrations run once per run, not per test file. With DATABASE_URL, the run gets its own empty
 * database on that server (created and migrated here, dropped in global-teardown), so tests never
 * touch data they did not make. Without it, each test file opens its own in-memory PGlite loaded
 * from one migrated dump (PGLITE_TEMPLATE; tests/setup/pglite-template.mjs).
 */
export default async function globalSetup(globalConfig) {
  const rootDir = globalConfig.rootDir;
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.env.PGLITE_TEMPLATE = await pgliteTemplate(rootDir);
    console.log("\n[tests] database: embedded PGlite (in memory, one per test file, from one migrated dump)");
    return;
  }
  const name = `switchboard_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  process.env.SWITCHBOARD_TEST_ADMIN_URL = url;
  process.env.SWITCHBOARD_TEST_DB = name;
  process.env.DATABASE_URL = testUrl.toString();
  await migratePostgres(testUrl.toString(), rootDir);
  console.log(`\n[tests] database: PostgreSQL ${testUrl.host}/${name} (fresh for this run, migrated once)`);
}
