import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { resources, serviceResources, services } from "@/db/schema";
import { preparedStatement } from "@/lib/platform/database-statements";
import { badRequest, conflict, notFound } from "@/lib/platform/http/errors";
import type { CreateServiceInput, UpdateServiceInput } from "./schema";

/**
 * Services CRUD (GET/POST/PATCH/DELETE /api/services): the business profile's "services with
 * durations and prices" that the assistant answers from, and what appointments book (with the staff
 * or rooms that deliver them). Names are unique per organization, ignoring case.
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
  resourceIds: string[];
  createdAt: string;
  updatedAt: string;
};

type Row = typeof services.$inferSelect;

function toDto(row: Row, resourceIds: string[]): ServiceDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    durationMinutes: row.durationMinutes,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    priceCents: row.priceCents,
    priceText: row.priceText,
    bookable: row.bookable,
    isActive: row.isActive,
    resourceIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A service row's resources, by id: a subquery, so a service and its resources are one statement. */
const resourceIdsOfService = sql<string[]>`array(select ${serviceResources.resourceId} from ${serviceResources}
  where ${serviceResources.organizationId} = ${services.organizationId} and ${serviceResources.serviceId} = ${services.id}
  order by ${serviceResources.resourceId})`;

/** The columns read for a ServiceDto. */
const withResources = { service: services, resourceIds: resourceIdsOfService };

/** The organization's services (all, or only active ones), by name, each with its resources: one statement. */
export async function listServices(db: DbOrTx, organizationId: string, options: { activeOnly?: boolean } = {}): Promise<ServiceDto[]> {
  // The active ones are read on every assistant turn: planned once (lib/platform/database-statements.ts).
  const statement = preparedStatement(db, options.activeOnly ? "switchboard_active_services" : "switchboard_services", () =>
    db
      .select(withResources)
      .from(services)
      .where(
        options.activeOnly
          ? and(eq(services.organizationId, sql.placeholder("organizationId")), eq(services.isActive, sql.placeholder("active")))
          : eq(services.organizationId, sql.placeholder("organizationId")),
      )
      .orderBy(asc(sql`lower(${services.name})`), asc(services.id)),
  );
  const rows = await statement.execute({ organizationId, active: true });
  return rows.map((r) => toDto(r.service, r.resourceIds));
}

/** The organization's service with this name (case-insensitive), if any. */
export async function findServiceByName(db: DbOrTx, organizationId: string, name: string, exceptId?: string): Promise<ServiceDto | null> {
  const [row] = await db
    .select(withResources)
    .from(services)
    .where(
      and(
        eq(services.organizationId, organizationId),
        sql`lower(${services.name}) = lower(${name.trim()})`,
        exceptId ? ne(services.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row ? toDto(row.service, row.resourceIds) : null;
}

function duplicate(name: string) {
  return conflict(`You already have a service named "${name}"`, { name: "You already have a service with this name" });
}

export async function getService(db: DbOrTx, organizationId: string, id: string): Promise<ServiceDto> {
  const [row] = await db.select(withResources).from(services).where(and(eq(services.id, id), eq(services.organizationId, organizationId)));
  if (!row) throw notFound("Service");
  return toDto(row.service, row.resourceIds);
}

/** Every id must be one of the organization's resources that is not archived. */
async function assertResources(db: DbOrTx, organizationId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await db
    .select({ id: resources.id })
    .from(resources)
    .where(and(eq(resources.organizationId, organizationId), inArray(resources.id, unique), isNull(resources.archivedAt)));
  if (rows.length !== unique.length) {
    const message = "Choose staff or rooms from your own list";
    throw badRequest(`Invalid request: resourceIds: ${message}`, { resourceIds: message });
  }
  return unique;
}

async function setLinks(tx: DbOrTx, organizationId: string, serviceId: string, resourceIds: string[]) {
  await tx.delete(serviceResources).where(and(eq(serviceResources.organizationId, organizationId), eq(serviceResources.serviceId, serviceId)));
  if (resourceIds.length) await tx.insert(serviceResources).values(resourceIds.map((resourceId) => ({ organizationId, serviceId, resourceId })));
}

export async function createService(db: Db, organizationId: string, input: CreateServiceInput): Promise<ServiceDto> {
  if (await findServiceByName(db, organizationId, input.name)) throw duplicate(input.name);
  const resourceIds = await assertResources(db, organizationId, input.resourceIds);
  const id = crypto.randomUUID();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(services).values({
      id,
      organizationId,
      name: input.name,
      description: input.description,
      durationMinutes: input.durationMinutes,
      bufferBeforeMinutes: input.bufferBeforeMinutes,
      bufferAfterMinutes: input.bufferAfterMinutes,
      priceCents: input.priceCents ?? null,
      priceText: input.priceText ?? null,
      bookable: input.bookable,
      isActive: input.isActive,
      createdAt: now,
      updatedAt: now,
    });
    await setLinks(tx, organizationId, id, resourceIds);
  });
  return getService(db, organizationId, id);
}

/** Changes apply to new bookings; existing appointments keep their times. */
export async function updateService(db: Db, organizationId: string, id: string, input: UpdateServiceInput): Promise<ServiceDto> {
  await getService(db, organizationId, id);
  if (input.name && (await findServiceByName(db, organizationId, input.name, id))) throw duplicate(input.name);
  const resourceIds = input.resourceIds ? await assertResources(db, organizationId, input.resourceIds) : undefined;
  const { resourceIds: _ignored, ...given } = input;
  void _ignored;
  const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<Row>;
  // A price is either an amount or words: setting one clears the other unless both are sent.
  if (input.priceCents != null && input.priceText === undefined) fields.priceText = null;
  if (input.priceText != null && input.priceCents === undefined) fields.priceCents = null;
  await db.transaction(async (tx) => {
    await tx
      .update(services)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(services.id, id), eq(services.organizationId, organizationId)));
    if (resourceIds) await setLinks(tx, organizationId, id, resourceIds);
  });
  return getService(db, organizationId, id);
}

/** Deletes the service; its appointments stay, with the service's name. */
export async function deleteService(db: DbOrTx, organizationId: string, id: string): Promise<{ success: true; id: string }> {
  const deleted = await db
    .delete(services)
    .where(and(eq(services.id, id), eq(services.organizationId, organizationId)))
    .returning({ id: services.id });
  if (deleted.length === 0) throw notFound("Service");
  return { success: true, id };
}
