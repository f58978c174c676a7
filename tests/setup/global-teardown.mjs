import pg from "pg";

export default async function globalTeardown() {
  const adminUrl = process.env.SWITCHBOARD_TEST_ADMIN_URL;
  const name = process.env.SWITCHBOARD_TEST_DB;
  if (!adminUrl || !name) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
