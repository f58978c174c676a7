import pg from "pg";

/**
 * With DATABASE_URL, the run gets its own empty database on that server (created here, dropped in
 * global-teardown), so tests never touch data they did not make. Without it, each test file opens
 * an in-memory PGlite.
 */
export default async function globalSetup() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log("\n[tests] database: embedded PGlite (in memory, one per test file)");
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
  console.log(`\n[tests] database: PostgreSQL ${testUrl.host}/${name} (fresh for this run)`);
}
