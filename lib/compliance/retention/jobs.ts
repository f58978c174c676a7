import "server-only";
import { getBlobStore } from "@/lib/platform/blob-store";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { applyRetention, organizationsWithRetention } from "./service";

/** One organization's retention run (lib/compliance/retention/service.ts applyRetention). */
export const retentionApplyJob = defineJob<{ organizationId: string }>({
  name: "retention.apply",
  retryLimit: 2,
  handler: async ({ organizationId }, { db }) => {
    await applyRetention(db, getBlobStore(), organizationId);
  },
});

/**
 * Every hour: one `retention.apply` job per organization that has something to keep an eye on, so
 * the organizations are handled in parallel by any instance and one large one holds no other.
 */
export const retentionSweepJob = defineJob<Record<string, never>>({
  name: "retention.sweep",
  everySeconds: 3600,
  retryLimit: 0,
  handler: async (_data, { db, job }) => {
    for (const organizationId of await organizationsWithRetention(db)) {
      await enqueue(null, retentionApplyJob, { organizationId }, { singletonKey: `${organizationId}:${job.id}` });
    }
  },
});
