// Every test file runs against its own migrated, empty database: a fresh in-memory PGlite loaded from
// the dump global-setup made (PGLITE_TEMPLATE), or (with DATABASE_URL) the disposable database
// global-setup created and migrated for this run.
process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.PUBLIC_URL ??= "http://localhost:3000";
if (!process.env.DATABASE_URL) process.env.PGLITE_DATA_DIR = "memory://";
process.env.CRON_SECRET ??= "test-cron-secret-0123456789";
// The suite is a test deployment: purchases settle in the simulated processor on either driver
// (with DATABASE_URL a real deployment defaults to no test payments; tests that check that flip env).
process.env.PAYMENTS_TEST_MODE ??= "true";
