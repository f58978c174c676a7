import "server-only";
import { getDbHandle } from "@/lib/database";
import { seedIfEmpty } from "./demo";

/** Migrates (inside getDbHandle) and seeds the demo data on a first start. Called before the app serves. */
export async function prepareDatabase() {
  const { db, driver } = await getDbHandle();
  const seeded = await seedIfEmpty(db);
  if (seeded) {
    console.log(
      `[switchboard] ${driver}: first start, seeded the demo organization (${seeded.calls} calls, ${seeded.messages} texts, ${seeded.replies} assistant replies)`,
    );
  } else {
    console.log(`[switchboard] ${driver}: database ready`);
  }
}
