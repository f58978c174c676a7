/**
 * Runs once when a server instance starts, before it serves: sizes the speech worker pools
 * (SPEECH_WORKERS), applies pending migrations and seeds the demo data into an empty database
 * (SEED_DEMO_DATA=false turns the seed off).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ env }, { configureSpeechPools }] = await Promise.all([import("./lib/env"), import("./lib/providers/speech-pool")]);
  configureSpeechPools({ workers: env.SPEECH_WORKERS }); // the pools themselves start on first use
  const { prepareDatabase } = await import("./db/prepare");
  await prepareDatabase();
}
