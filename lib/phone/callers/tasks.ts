import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { tasks, users, type TaskKind, type TaskStatus } from "@/db/schema";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import type { ListTasksQuery, UpdateTaskInput } from "./tasks-schema";
import { taskLink } from "./task-link";
import { queueProviderDeliveries } from "@/lib/platform/outbound/provider-queue";

/**
 * Tasks: what the team has to do after the assistant's calls and texts — call back X about Y, listen
 * to a voicemail, answer a text. Each has who (number and name), what (title and the caller's
 * words), when, and a link to the call or text. Status open → done or snoozed; assignable to a member.
 */
export type NewTask = {
  organizationId: string;
  kind: TaskKind;
  title: string;
  detail?: string;
  contactNumber: string;
  contactName?: string | null;
  callId?: string | null;
  messageId?: string | null;
  sourceKey: string;
  /** An emergency or a complaint (the owner's call rules). */
  urgent?: boolean;
};

/** Makes the task once per source (a job run twice makes it once). True when it was new. */
export async function createTask(db: DbOrTx, task: NewTask): Promise<boolean> {
  const rows = await db
    .insert(tasks)
    .values({
      id: crypto.randomUUID(),
      organizationId: task.organizationId,
      kind: task.kind,
      title: task.title.slice(0, 300),
      detail: (task.detail ?? "").slice(0, 4000),
      contactNumber: task.contactNumber,
      contactName: task.contactName ?? null,
      callId: task.callId ?? null,
      messageId: task.messageId ?? null,
      sourceKey: task.sourceKey,
      urgent: task.urgent ?? false,
    })
    .onConflictDoNothing({ target: [tasks.organizationId, tasks.sourceKey] })
    .returning({ id: tasks.id });
  if (rows.length) await queueProviderDeliveries(db as Db, task.organizationId, "task.created", { taskId: rows[0].id }); // Asana
  return rows.length > 0;
}

/** Whether the task of this source exists (a retried turn finds the one it wrote). */
export async function taskExists(db: DbOrTx, organizationId: string, sourceKey: string): Promise<boolean> {
  const [row] = await db.select({ id: tasks.id }).from(tasks).where(and(eq(tasks.organizationId, organizationId), eq(tasks.sourceKey, sourceKey)));
  return Boolean(row);
}

export type TaskView = {
  id: string;
  kind: TaskKind;
  title: string;
  detail: string;
  contactNumber: string;
  contactName: string | null;
  callId: string | null;
  messageId: string | null;
  /** Where the call or text is shown in the app. */
  link: string | null;
  status: TaskStatus;
  snoozedUntil: string | null;
  assigneeId: string | null;
  assigneeName: string | null;
  doneAt: string | null;
  createdAt: string;
};

type Row = typeof tasks.$inferSelect & { assigneeName?: string | null };

export { taskLink };

function toView(row: Row): TaskView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    detail: row.detail,
    contactNumber: row.contactNumber,
    contactName: row.contactName,
    callId: row.callId,
    messageId: row.messageId,
    link: taskLink(row),
    status: row.status,
    snoozedUntil: row.snoozedUntil?.toISOString() ?? null,
    assigneeId: row.assigneeId,
    assigneeName: row.assigneeName ?? null,
    doneAt: row.doneAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A snoozed task whose time has come is open again (read as such; stored when next touched). */
async function wakeSnoozed(db: DbOrTx, organizationId: string, now: Date) {
  await db
    .update(tasks)
    .set({ status: "open", snoozedUntil: null, updatedAt: now })
    .where(and(eq(tasks.organizationId, organizationId), eq(tasks.status, "snoozed"), lte(tasks.snoozedUntil, now)));
}

/** GET /api/tasks */
export async function listTasks(db: Db, organizationId: string, query: ListTasksQuery, now = new Date()): Promise<{ tasks: TaskView[]; counts: Record<TaskStatus, number> }> {
  await wakeSnoozed(db, organizationId, now);
  const where = [eq(tasks.organizationId, organizationId)];
  if (query.status !== "all") where.push(eq(tasks.status, query.status));
  const [rows, counts] = await Promise.all([
    db
      .select({ task: tasks, assigneeName: users.name })
      .from(tasks)
      .leftJoin(users, and(eq(users.id, tasks.assigneeId), eq(users.organizationId, organizationId)))
      .where(and(...where))
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(query.limit),
    db
      .select({ status: tasks.status, n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(eq(tasks.organizationId, organizationId))
      .groupBy(tasks.status),
  ]);
  const byStatus: Record<TaskStatus, number> = { open: 0, done: 0, snoozed: 0 };
  for (const c of counts) byStatus[c.status] = Number(c.n);
  return { tasks: rows.map((r) => toView({ ...r.task, assigneeName: r.assigneeName })), counts: byStatus };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** PATCH /api/tasks/{id} */
export async function updateTask(db: Db, organizationId: string, id: string, input: UpdateTaskInput, now = new Date()): Promise<TaskView> {
  const patch: Partial<typeof tasks.$inferInsert> = { updatedAt: now };
  if (input.status) {
    patch.status = input.status;
    patch.doneAt = input.status === "done" ? now : null;
    patch.snoozedUntil = input.status === "snoozed" ? (input.snoozedUntil ?? new Date(now.getTime() + DAY_MS)) : null;
    if (input.status === "snoozed" && patch.snoozedUntil! <= now) throw badRequest("snoozedUntil must be in the future", { snoozedUntil: "Choose a time in the future" });
  }
  if (input.assigneeId !== undefined) {
    if (input.assigneeId !== null) {
      const [member] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, input.assigneeId), eq(users.organizationId, organizationId)));
      if (!member) throw badRequest("assigneeId is not a member of this organization", { assigneeId: "Choose a member of your organization" });
    }
    patch.assigneeId = input.assigneeId;
  }
  const [row] = await db
    .update(tasks)
    .set(patch)
    .where(and(eq(tasks.id, id), eq(tasks.organizationId, organizationId)))
    .returning();
  if (!row) throw notFound("Task");
  const [assignee] = row.assigneeId ? await db.select({ name: users.name }).from(users).where(eq(users.id, row.assigneeId)) : [];
  return toView({ ...row, assigneeName: assignee?.name ?? null });
}

/** Tasks made in [from, to): the recap's "new tasks". */
export async function tasksCreatedBetween(db: DbOrTx, organizationId: string, from: Date, to: Date) {
  return db
    .select()
    .from(tasks)
    .where(and(eq(tasks.organizationId, organizationId), sql`${tasks.createdAt} >= ${from.toISOString()} and ${tasks.createdAt} < ${to.toISOString()}`))
    .orderBy(desc(tasks.createdAt));
}

