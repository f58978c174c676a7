import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { appointments, blockedTimes, resources } from "@/db/schema";
import { badRequest, conflict, notFound } from "@/lib/platform/http/errors";
import type { CreateBlockedTimeInput, CreateResourceInput, UpdateResourceInput } from "./schema";

/** Staff, rooms and equipment that appointments occupy, and the time blocked on them. */
export type ResourceDto = {
  id: string;
  name: string;
  kind: "staff" | "room" | "equipment";
  followsBusinessHours: boolean;
  weeklyHours: (typeof resources.$inferSelect)["weeklyHours"];
  isActive: boolean;
  createdAt: string;
};

type Row = typeof resources.$inferSelect;

function toDto(r: Row): ResourceDto {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    followsBusinessHours: r.followsBusinessHours,
    weeklyHours: r.weeklyHours,
    isActive: r.isActive,
    createdAt: r.createdAt.toISOString(),
  };
}

function assertSchedule(input: { followsBusinessHours?: boolean; weeklyHours?: Row["weeklyHours"] }, current?: Row) {
  const follows = input.followsBusinessHours ?? current?.followsBusinessHours ?? true;
  const hours = input.weeklyHours !== undefined ? input.weeklyHours : current?.weeklyHours;
  if (!follows && !hours) {
    const message = "Give the weekly hours, or let it follow the business hours";
    throw badRequest(`Invalid request: weeklyHours: ${message}`, { weeklyHours: message });
  }
}

export async function listResources(db: DbOrTx, organizationId: string): Promise<ResourceDto[]> {
  const rows = await db
    .select()
    .from(resources)
    .where(and(eq(resources.organizationId, organizationId), isNull(resources.archivedAt)))
    .orderBy(asc(resources.name), asc(resources.id));
  return rows.map(toDto);
}

async function findResource(db: DbOrTx, organizationId: string, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(resources)
    .where(and(eq(resources.id, id), eq(resources.organizationId, organizationId), isNull(resources.archivedAt)));
  if (!row) throw notFound("Resource");
  return row;
}

export async function getResource(db: DbOrTx, organizationId: string, id: string): Promise<ResourceDto> {
  return toDto(await findResource(db, organizationId, id));
}

export async function createResource(db: DbOrTx, organizationId: string, input: CreateResourceInput): Promise<ResourceDto> {
  assertSchedule(input);
  const now = new Date();
  const [row] = await db
    .insert(resources)
    .values({ id: crypto.randomUUID(), organizationId, ...input, createdAt: now, updatedAt: now })
    .returning();
  return toDto(row);
}

export async function updateResource(db: DbOrTx, organizationId: string, id: string, input: UpdateResourceInput): Promise<ResourceDto> {
  const current = await findResource(db, organizationId, id);
  assertSchedule(input, current);
  const [row] = await db
    .update(resources)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(resources.id, id), eq(resources.organizationId, organizationId)))
    .returning();
  return toDto(row);
}

/**
 * Removes a resource from the lists. Refused while it has upcoming appointments (move or cancel them
 * first); its past appointments keep pointing at it, so it is archived rather than deleted.
 */
export async function archiveResource(db: DbOrTx, organizationId: string, id: string, now = new Date()): Promise<{ success: true }> {
  await findResource(db, organizationId, id);
  const [upcoming] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.organizationId, organizationId),
        eq(appointments.resourceId, id),
        eq(appointments.status, "confirmed"),
        gt(appointments.endsAt, now),
      ),
    )
    .limit(1);
  if (upcoming) throw conflict("This resource has upcoming appointments. Move or cancel them first, or mark it inactive.");
  await db
    .update(resources)
    .set({ archivedAt: now, isActive: false, updatedAt: now })
    .where(and(eq(resources.id, id), eq(resources.organizationId, organizationId)));
  return { success: true };
}

export type BlockedTimeDto = { id: string; resourceId: string | null; start: string; end: string; reason: string };

export async function listBlockedTimes(db: DbOrTx, organizationId: string, from: Date, to: Date): Promise<BlockedTimeDto[]> {
  const rows = await db
    .select()
    .from(blockedTimes)
    .where(and(eq(blockedTimes.organizationId, organizationId), lt(blockedTimes.startsAt, to), gt(blockedTimes.endsAt, from)))
    .orderBy(asc(blockedTimes.startsAt));
  return rows.map((r) => ({ id: r.id, resourceId: r.resourceId, start: r.startsAt.toISOString(), end: r.endsAt.toISOString(), reason: r.reason }));
}

export async function createBlockedTime(db: DbOrTx, organizationId: string, input: CreateBlockedTimeInput): Promise<BlockedTimeDto> {
  if (input.resourceId) await findResource(db, organizationId, input.resourceId);
  const [row] = await db
    .insert(blockedTimes)
    .values({ id: crypto.randomUUID(), organizationId, resourceId: input.resourceId, startsAt: input.start, endsAt: input.end, reason: input.reason })
    .returning();
  return { id: row.id, resourceId: row.resourceId, start: row.startsAt.toISOString(), end: row.endsAt.toISOString(), reason: row.reason };
}

export async function deleteBlockedTime(db: DbOrTx, organizationId: string, id: string): Promise<{ success: true }> {
  const deleted = await db
    .delete(blockedTimes)
    .where(and(eq(blockedTimes.id, id), eq(blockedTimes.organizationId, organizationId)))
    .returning({ id: blockedTimes.id });
  if (deleted.length === 0) throw notFound("Blocked time");
  return { success: true };
}

/** Blocked intervals overlapping [from, to) for these resources and for everyone (resource null). */
export async function blockedIntervals(db: DbOrTx, organizationId: string, resourceIds: string[], from: Date, to: Date) {
  const whoseClause = resourceIds.length ? or(isNull(blockedTimes.resourceId), inArray(blockedTimes.resourceId, resourceIds)) : isNull(blockedTimes.resourceId);
  return db
    .select({ resourceId: blockedTimes.resourceId, startsAt: blockedTimes.startsAt, endsAt: blockedTimes.endsAt })
    .from(blockedTimes)
    .where(and(eq(blockedTimes.organizationId, organizationId), lt(blockedTimes.startsAt, to), gt(blockedTimes.endsAt, from), whoseClause));
}
