import "server-only";
import { deliverWebhookJob, webhookSweepJob } from "@/lib/integrations/webhooks";
import { mcpCheckServiceJob, mcpHealthSweepJob } from "@/lib/mcp/health";
import type { JobDefinition } from "./types";

/** Every job the runner knows. A feature defines its jobs beside its code and lists them here. */
export const jobDefinitions: JobDefinition<unknown>[] = [
  deliverWebhookJob,
  webhookSweepJob,
  mcpHealthSweepJob,
  mcpCheckServiceJob,
] as JobDefinition<unknown>[];
