import "server-only";
import { calendarSyncJob } from "@/lib/scheduling/calendar-sync";
import { appointmentsSweepJob, appointmentTextJob, reminderJob } from "@/lib/scheduling/notifications";
import { deliverWebhookJob, webhookSweepJob } from "@/lib/channels/integrations/webhooks";
import { oauthRefreshJob, reconnectNoticeJob } from "@/lib/channels/integrations/oauth";
import { asanaPollJob } from "@/lib/channels/integrations/asana-sync";
import { a2aDeliverJob, a2aFollowTaskJob } from "@/lib/agents/a2a/messages";
import { a2aCardSweepJob, a2aCheckAgentJob } from "@/lib/agents/a2a/service";
import { mcpCheckServiceJob, mcpHealthSweepJob } from "@/lib/agents/mcp/health";
import { recapSweepJob } from "@/lib/receptionist/recaps";
import { finishCallJob, processVoicemailJob } from "@/lib/channels/phone-line/voice/post-call";
import { healthCheckJob } from "@/lib/reports/analytics/health";
import { analyticsRollupJob, analyticsRollupOrganizationJob } from "@/lib/reports/analytics/rollup";
import { retentionApplyJob, retentionSweepJob } from "@/lib/compliance/retention/jobs";
import { registrationReviewJob, releaseQueuedTextsJob } from "@/lib/compliance/messaging-registration";
import { storeRecordingJob } from "@/lib/compliance/recordings";
import { deleteCarrierRecordingJob } from "@/lib/compliance/recording-deletion";
import type { JobDefinition } from "@/lib/platform/jobs/types";

/**
 * Every job the app runs: the one list above the job engine. lib/platform/jobs knows queues, not features;
 * each feature defines its jobs beside its code (`defineJob`) and they are listed here. The runners
 * get it from their entry points: instrumentation.ts, scripts/worker.ts and the cron route.
 */
export const jobDefinitions: JobDefinition<unknown>[] = [
  deliverWebhookJob,
  webhookSweepJob,
  oauthRefreshJob,
  reconnectNoticeJob,
  asanaPollJob,
  appointmentTextJob,
  reminderJob,
  appointmentsSweepJob,
  calendarSyncJob,
  mcpHealthSweepJob,
  mcpCheckServiceJob,
  a2aCardSweepJob,
  a2aCheckAgentJob,
  a2aDeliverJob,
  a2aFollowTaskJob,
  finishCallJob,
  processVoicemailJob,
  healthCheckJob,
  analyticsRollupJob,
  analyticsRollupOrganizationJob,
  recapSweepJob,
  retentionSweepJob,
  retentionApplyJob,
  registrationReviewJob,
  releaseQueuedTextsJob,
  storeRecordingJob,
  deleteCarrierRecordingJob,
] as JobDefinition<unknown>[];
