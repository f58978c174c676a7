// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
// Imported only then, so that loading this setup does not read the environment (lib/env reads
// process.env once) before a test file sets its own variables, e.g. the Stripe keys.
afterAll(async () => {
  const { closeJobQueue } = await import("@/lib/jobs/queue");
  await closeJobQueue();
});
