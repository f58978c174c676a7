// npm run db:migrate — applies pending SQL migrations to DATABASE_URL, or to the embedded PGlite in .data/.
import { closeDb, getDbHandle } from "@/lib/platform/database";

async function main() {
  const { driver } = await getDbHandle();
  console.log(`migrations applied (${driver})`);
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
