import "server-only";
import { ensureFirstMasterAdmin } from "@/lib/consoles/admin/bootstrap";
import { getDbHandle } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { seedIfEmpty } from "./demo";

/**
 * Migrates (inside getDbHandle), seeds the demo data on a first start when SEED_DEMO_DATA allows it
 * (by default only without DATABASE_URL), and creates the first master admin from
 * MASTER_ADMIN_EMAIL / MASTER_ADMIN_PASSWORD. Called before the app serves.
 */
export async function prepareDatabase() {
  const { db, driver } = await getDbHandle();
  const seeded = await seedIfEmpty(db);
  if (seeded) {
    console.log(
      `[switchboard] ${driver}: first start, seeded the demo organization (${seeded.calls} calls, ${seeded.messages} texts, ${seeded.replies} assistant replies)`,
    );
  } else {
    console.log(`[switchboard] ${driver}: database ready${env.SEED_DEMO_DATA ? "" : " (demo seed off)"}`);
  }
  if (Boolean(env.MASTER_ADMIN_EMAIL) !== Boolean(env.MASTER_ADMIN_PASSWORD)) {
    console.warn("[switchboard] set both MASTER_ADMIN_EMAIL and MASTER_ADMIN_PASSWORD to create the first master admin");
  }
  const outcome = await ensureFirstMasterAdmin(db, env.MASTER_ADMIN_EMAIL, env.MASTER_ADMIN_PASSWORD);
  if (outcome === "created") console.log(`[switchboard] created the first master admin ${env.MASTER_ADMIN_EMAIL}`);
  if (outcome === "email-taken") {
    console.warn(`[switchboard] MASTER_ADMIN_EMAIL ${env.MASTER_ADMIN_EMAIL} belongs to an existing account: no master admin created`);
  }
}
