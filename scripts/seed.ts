// npm run db:seed — empties every table and seeds the demo organization again.
import { sql } from "drizzle-orm";
import { closeDb, getDbHandle } from "@/lib/platform/database";
import { seedDemo } from "@/lib/consoles/seed/demo";
import { demoAccount, demoAdminAccount, demoMasterAccount } from "@/lib/consoles/demo-accounts";

async function main() {
  const { db, driver } = await getDbHandle();
  const tables = await db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const names = tables.rows.map((r) => `"${r.tablename}"`).join(", ");
  if (names) await db.execute(sql.raw(`truncate ${names} cascade`));
  const result = await seedDemo(db);
  console.log(`seeded (${driver}): ${result.calls} calls, ${result.messages} texts, ${result.replies} assistant replies`);
  for (const a of [demoAccount, demoAdminAccount, demoMasterAccount]) console.log(`  ${a.role}: ${a.email} / ${a.password}`);
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
