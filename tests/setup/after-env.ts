// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
// Imported lazily: loading the queue here would load lib/env.ts before a test file sets its
// environment (lib/providers/payments/stripe.test.ts sets Stripe keys first).
afterAll(async () => {
  const { closeJobQueue } = await import("@/lib/jobs/queue");
  await closeJobQueue();
});
