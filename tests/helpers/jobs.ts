import { runDueJobs } from "@/lib/platform/jobs/runner";
import type { JobDefinition } from "@/lib/platform/jobs/types";

/**
 * Runs due jobs of these kinds until `done()` holds. On a PostgreSQL server the test files share one
 * queue, so another file's runner may have taken this file's job: then we wait for it to finish.
 */
export async function runJobsUntil(definitions: JobDefinition<any>[], done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await runDueJobs({ definitions: definitions as JobDefinition<unknown>[], schedules: false });
    if (await done()) return;
    if (Date.now() > until) throw new Error(`jobs ${definitions.map((d) => d.name).join(", ")} did not finish within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
