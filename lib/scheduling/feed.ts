import "server-only";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { appointments, resources } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { buildIcs } from "./ics";
import { organizationBooking, organizationForIcsToken } from "./settings";
import { readBackOf } from "./views";

const DAY = 86_400_000;

/**
 * The private ICS feed (GET /api/appointments/feed/{token}.ics): booked appointments from 30 days
 * ago to a year ahead. A calendar app subscribed to the URL re-reads it every 15 minutes; a
 * cancelled or moved appointment simply changes in the next read. Null for an unknown token.
 */
export async function icsFeed(db: DbOrTx, token: string, now = new Date()): Promise<string | null> {
  const organizationId = await organizationForIcsToken(db, token);
  if (!organizationId) return null;
  const org = await organizationBooking(db, organizationId);
  const rows = await db
    .select({ a: appointments, resourceName: resources.name })
    .from(appointments)
    .leftJoin(resources, and(eq(resources.id, appointments.resourceId), eq(resources.organizationId, organizationId)))
    .where(
      and(
        eq(appointments.organizationId, organizationId),
        eq(appointments.status, "confirmed"),
        gt(appointments.endsAt, new Date(now.getTime() - 30 * DAY)),
        lt(appointments.startsAt, new Date(now.getTime() + 366 * DAY)),
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(5000);
  const host = new URL(env.PUBLIC_URL).hostname;
  return buildIcs({
    name: `${org.name} appointments`,
    timezone: org.timezone,
    now,
    events: rows.map(({ a, resourceName }) => ({
      uid: `${a.id}@${host}`,
      start: a.startsAt,
      end: a.endsAt,
      summary: `${a.serviceName} — ${a.customerName}`,
      description: `${readBackOf(a, resourceName, org.timezone)}.\nPhone: ${a.customerPhone}${a.notes ? `\nNotes: ${a.notes}` : ""}`,
      updated: a.updatedAt,
      status: "CONFIRMED",
    })),
  });
}
