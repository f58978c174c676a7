import "server-only";
import { deliverWebhookJob, webhookSweepJob } from "@/lib/integrations/webhooks";
import { finishCallJob, processVoicemailJob } from "@/lib/telephony/voice/post-call";
import type { JobDefinition } from "./types";

/** Every job the runner knows. A feature defines its jobs beside its code and lists them here. */
export const jobDefinitions: JobDefinition<unknown>[] = [
  deliverWebhookJob,
  webhookSweepJob,
  finishCallJob,
  processVoicemailJob,
] as JobDefinition<unknown>[];
