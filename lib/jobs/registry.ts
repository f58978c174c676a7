import "server-only";
import { calendarSyncJob } from "@/lib/appointments/calendar-sync";
import { appointmentsSweepJob, appointmentTextJob, reminderJob } from "@/lib/appointments/notifications";
import { deliverWebhookJob, webhookSweepJob } from "@/lib/integrations/webhooks";
import type { JobDefinition } from "./types";

/** Every job the runner knows. A feature defines its jobs beside its code and lists them here. */
export const jobDefinitions: JobDefinition<unknown>[] = [
  deliverWebhookJob,
  webhookSweepJob,
  appointmentTextJob,
  reminderJob,
  appointmentsSweepJob,
  calendarSyncJob,
] as JobDefinition<unknown>[];
