// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
// Imported lazily: loading lib/env here would fix the environment before a test file sets its own.
afterAll(async () => {
  if (!(globalThis as { __switchboardJobQueue?: unknown }).__switchboardJobQueue) return;
  const { closeJobQueue } = await import("@/lib/jobs/queue");
  await closeJobQueue();
});
