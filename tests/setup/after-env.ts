import { closeJobQueue } from "@/lib/jobs/queue";

// A test file that put a job on the queue opened it (pg-boss keeps a pool): close it with the file.
afterAll(async () => {
  await closeJobQueue();
});
