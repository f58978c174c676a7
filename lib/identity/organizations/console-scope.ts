import "server-only";
import { eq, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { forbidden, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";

/**
 * Whose records the MCP and A2A consoles show and change (docs/decisions.md "Agent consoles"):
 * an admin works on their own organization; a master admin sees every organization's records and
 * may register for another one by naming its id.
 */
export type ConsoleScope = { kind: "organization"; organizationId: string } | { kind: "all" };

export function consoleScope(ctx: RequestContext): ConsoleScope {
  return ctx.role === "master_admin" ? { kind: "all" } : { kind: "organization", organizationId: ctx.organizationId };
}

/** The where clause that keeps a query inside the scope. */
export function scopedTo(column: Column, scope: ConsoleScope): SQL {
  return scope.kind === "all" ? sql`true` : eq(column, scope.organizationId);
}

/**
 * The organization a new record belongs to. The body's organizationId is never trusted: only a
 * master admin may name another organization (which must exist); everyone else gets their own.
 */
export async function targetOrganization(db: Db, ctx: RequestContext, requested: string | undefined): Promise<string> {
  if (!requested || requested === ctx.organizationId) return ctx.organizationId;
  if (ctx.role !== "master_admin") throw forbidden("Only a master admin can register for another organization");
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, requested)).limit(1);
  if (!org) throw notFound("Organization");
  return org.id;
}
