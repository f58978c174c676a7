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

export { taskKinds, taskStatuses };
