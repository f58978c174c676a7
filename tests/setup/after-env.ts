// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
// Imported lazily: a static import would load lib/env before the test file sets its environment
// (lib/providers/payments/stripe.test.ts sets the Stripe keys before importing the app).
afterAll(async () => {
  const { closeJobQueue } = await import("@/lib/jobs/queue");
  await closeJobQueue();
});
