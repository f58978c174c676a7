import { z } from "zod";
import { taskKinds, taskStatuses } from "@/db/schema/receptionist";

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** GET /api/tasks?status=open|done|snoozed|all&limit=50 */
export const listTasksQuery = z.object({
  status: z.preprocess(blank, z.enum([...taskStatuses, "all"], "status must be open, done, snoozed or all").default("open")),
  limit: z.preprocess(blank, z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50)),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

/** PATCH /api/tasks/{id} {status, assigneeId?, snoozedUntil?} */
export const updateTaskInput = z
  .object({
    status: z.enum(taskStatuses, "status must be open, done or snoozed").optional(),
    /** A member of the organization, or null to unassign. */
    assigneeId: z.string("assigneeId must be a user id or null").max(200).nullable().optional(),
    /** With status snoozed: until when (default: 24 hours from now). */
    snoozedUntil: z
      .string()
      .refine((v) => !Number.isNaN(Date.parse(v)), "snoozedUntil must be a date and time in ISO 8601")
      .transform((v) => new Date(v))
      .optional(),
  })
  .refine((v) => v.status !== undefined || v.assigneeId !== undefined, { message: "Send status or assigneeId", path: ["status"] });
export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

const clock = z.string("localTime must be HH:MM").regex(/^([01]\d|2[0-3]):[0-5]\d$/, "localTime must be HH:MM (24-hour), e.g. 18:00");

/** PUT /api/recaps/settings {enabled?, localTime?} */
export const recapSettingsInput = z
  .object({ enabled: z.boolean("enabled must be true or false").optional(), localTime: clock.optional() })
  .refine((v) => v.enabled !== undefined || v.localTime !== undefined, { message: "Send enabled or localTime", path: ["localTime"] });
export type RecapSettingsInput = z.infer<typeof recapSettingsInput>;

/** PUT /api/phone-numbers/{id}/text-back {enabled?, template?} */
export const textBackInput = z
  .object({
    enabled: z.boolean("enabled must be true or false").optional(),
    template: z.string("template must be text").trim().min(1, "template must not be empty").max(320, "template must be at most 320 characters").optional(),
  })
  .refine((v) => v.enabled !== undefined || v.template !== undefined, { message: "Send enabled or template", path: ["template"] });
export type TextBackInput = z.infer<typeof textBackInput>;

export { taskKinds, taskStatuses };

/** POST /api/emails/inbound: an e-mail as an inbound-mail service hands it over (parsed to JSON). */
export const inboundEmailInput = z.object({
  from: z.string("from is required").trim().min(3, "from is required").max(320),
  /** The address it was sent to (one, or a comma-separated list). */
  to: z.string().trim().max(2000).optional(),
  subject: z.string().max(1000).optional(),
  /** The plain-text body, quoted original included. */
  text: z.string("text is required").max(100_000),
});
export type InboundEmailInput = z.infer<typeof inboundEmailInput>;

/** POST /api/notifications/read: the notifications to mark read; none named → all of them. */
export const markNotificationsReadInput = z.object({
  ids: z.array(z.string({ error: "ids must be a list of notification ids" }).max(100), { error: "ids must be a list of notification ids" }).max(200, "At most 200 ids at once").optional(),
});
