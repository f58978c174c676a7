// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
// Imported only when the file ends, so lib/env is not loaded before a test file sets process.env
// (lib/providers/payments/stripe.test.ts sets the Stripe keys before it imports the app).
afterAll(async () => {
  const { closeJobQueue } = await import("@/lib/jobs/queue");
  await closeJobQueue();
});
