// What a test file opened in the process is closed with the file, so the next file starts clean and
// jest exits: the job queue (pg-boss keeps a pool) and the speech worker pools (worker threads).
// Imported lazily: loading lib/platform/env here would fix the environment before a test file sets its own.
afterAll(async () => {
  const held = globalThis as Record<string | symbol, unknown>;
  if (held.__switchboardJobQueue) {
    const { closeJobQueue } = await import("@/lib/platform/jobs/queue");
    await closeJobQueue();
  }
  const pools = held[Symbol.for("switchboard.workerPools")] as Map<string, unknown> | undefined;
  if (pools?.size) {
    const { closeSpeechPools } = await import("@/lib/platform/providers/speech-pool");
    await closeSpeechPools();
  }
});
