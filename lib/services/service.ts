import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { services } from "@/db/schema";
import { conflict, notFound } from "@/lib/http/errors";
import type { CreateServiceInput, UpdateServiceInput } from "./schema";

/**
 * The organization's services (GET/POST/PATCH/DELETE /api/services): the business profile's
 * "services with durations and prices" that the assistant answers from, and what appointments book.
 * Names are unique per organization, ignoring case.
 */
export type ServiceDto = {
  id: string;
  name: string;
  description: string;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  priceCents: number | null;
  priceText: string | null;
  bookable: boolean;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

type Row = typeof services.$inferSelect;

function toDto(row: Row): ServiceDto {
  const { organizationId: _org, createdAt, updatedAt, ...rest } = row;
  void _org;
  return { ...rest, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/** All of the organization's services (active and not), by name. */
export async function listServices(db: DbOrTx, organizationId: string, options: { activeOnly?: boolean } = {}): Promise<ServiceDto[]> {
  const rows = await db
    .select()
    .from(services)
    .where(options.activeOnly ? and(eq(services.organizationId, organizationId), eq(services.isActive, true)) : eq(services.organizationId, organizationId))
    .orderBy(asc(sql`lower(${services.name})`), asc(services.id));
  return rows.map(toDto);
}

export async function getService(db: DbOrTx, organizationId: string, id: string): Promise<ServiceDto> {
  const [row] = await db.select().from(services).where(and(eq(services.id, id), eq(services.organizationId, organizationId)));
  if (!row) throw notFound("Service");
  return toDto(row);
}

/** The organization's service with this name (case-insensitive), if any. */
export async function findServiceByName(db: DbOrTx, organizationId: string, name: string, exceptId?: string): Promise<ServiceDto | null> {
  const [row] = await db
    .select()
    .from(services)
    .where(
      and(
        eq(services.organizationId, organizationId),
        sql`lower(${services.name}) = lower(${name.trim()})`,
        exceptId ? ne(services.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row ? toDto(row) : null;
}

function duplicate(name: string) {
  return conflict(`You already have a service named "${name}"`, { name: "You already have a service with this name" });
}

export async function createService(db: DbOrTx, organizationId: string, input: CreateServiceInput): Promise<ServiceDto> {
  if (await findServiceByName(db, organizationId, input.name)) throw duplicate(input.name);
  const [row] = await db
    .insert(services)
    .values({ id: crypto.randomUUID(), organizationId, ...input })
    .returning();
  return toDto(row);
}

export async function updateService(db: DbOrTx, organizationId: string, id: string, input: UpdateServiceInput): Promise<ServiceDto> {
  await getService(db, organizationId, id);
  if (input.name && (await findServiceByName(db, organizationId, input.name, id))) throw duplicate(input.name);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<Row>;
  // A price is either an amount or words: setting one clears the other unless both are sent.
  if (input.priceCents != null && input.priceText === undefined) patch.priceText = null;
  if (input.priceText != null && input.priceCents === undefined) patch.priceCents = null;
  const [row] = await db
    .update(services)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(services.id, id), eq(services.organizationId, organizationId)))
    .returning();
  return toDto(row);
}

export async function deleteService(db: DbOrTx, organizationId: string, id: string): Promise<{ success: true; id: string }> {
  const deleted = await db
    .delete(services)
    .where(and(eq(services.id, id), eq(services.organizationId, organizationId)))
    .returning({ id: services.id });
  if (deleted.length === 0) throw notFound("Service");
  return { success: true, id };
}
