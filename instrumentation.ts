/**
 * Runs once when a server instance starts, before it serves: applies pending migrations and seeds
 * the demo data into an empty database (SEED_DEMO_DATA=false turns the seed off).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareDatabase } = await import("./lib/seed/prepare");
  await prepareDatabase();
}
