import "server-only";
import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { bookingSettings, organizations, type BusinessProfile } from "@/db/schema";
import { preparedStatement } from "@/lib/platform/database-statements";
import { env } from "@/lib/platform/env";
import { notFound } from "@/lib/platform/http/errors";
import { isTimeZone } from "./time";
import type { UpdateBookingSettingsInput } from "./schema";

export type BookingSettingsRow = typeof bookingSettings.$inferSelect;

export type BookingSettingsDto = Omit<BookingSettingsRow, "organizationId" | "icsToken" | "updatedAt"> & {
  /** The organization's time zone (business profile), UTC until one is set. */
  timezone: string;
  timezoneSet: boolean;
  /** The private calendar feed: anyone with this URL can read the appointments. */
  icsUrl: string;
  updatedAt: string;
};

export function newIcsToken(): string {
  return crypto.randomBytes(24).toString("base64url");
}

/** The organization's booking settings, created with the defaults on first use. */
export async function getBookingSettings(db: DbOrTx, organizationId: string): Promise<BookingSettingsRow> {
  const [row] = await db.select().from(bookingSettings).where(eq(bookingSettings.organizationId, organizationId));
  if (row) return row;
  await db.insert(bookingSettings).values({ organizationId, icsToken: newIcsToken() }).onConflictDoNothing();
  const [created] = await db.select().from(bookingSettings).where(eq(bookingSettings.organizationId, organizationId));
  return created;
}

export type OrganizationBooking = { name: string; timezone: string; timezoneSet: boolean; profile: BusinessProfile };

/** The organization's name, time zone and profile (hours, holidays). */
export async function organizationBooking(db: DbOrTx, organizationId: string): Promise<OrganizationBooking> {
  // Read on every turn of the booking dialogue: planned once (lib/platform/database-statements.ts).
  const statement = preparedStatement(db, "switchboard_organization_booking", () =>
    db
      .select({ name: organizations.name, profile: organizations.businessProfile })
      .from(organizations)
      .where(eq(organizations.id, sql.placeholder("organizationId"))),
  );
  const [org] = await statement.execute({ organizationId });
  if (!org) throw notFound("Organization");
  const tz = org.profile?.timezone;
  const timezoneSet = Boolean(tz && isTimeZone(tz));
  return { name: org.name, timezone: timezoneSet ? tz! : "UTC", timezoneSet, profile: org.profile ?? {} };
}

export function icsUrlFor(token: string): string {
  return `${env.PUBLIC_URL.replace(/\/$/, "")}/api/appointments/feed/${token}.ics`;
}

export async function bookingSettingsView(db: DbOrTx, organizationId: string): Promise<BookingSettingsDto> {
  const row = await getBookingSettings(db, organizationId);
  const org = await organizationBooking(db, organizationId);
  const { organizationId: _o, icsToken, updatedAt, ...rest } = row;
  void _o;
  return { ...rest, timezone: org.timezone, timezoneSet: org.timezoneSet, icsUrl: icsUrlFor(icsToken), updatedAt: updatedAt.toISOString() };
}

export async function updateBookingSettings(db: DbOrTx, organizationId: string, input: UpdateBookingSettingsInput): Promise<BookingSettingsDto> {
  await getBookingSettings(db, organizationId);
  await db
    .update(bookingSettings)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(bookingSettings.organizationId, organizationId));
  return bookingSettingsView(db, organizationId);
}

/** A new feed secret: the old URL stops working at once. */
export async function regenerateIcsToken(db: DbOrTx, organizationId: string): Promise<BookingSettingsDto> {
  await getBookingSettings(db, organizationId);
  await db.update(bookingSettings).set({ icsToken: newIcsToken(), updatedAt: new Date() }).where(eq(bookingSettings.organizationId, organizationId));
  return bookingSettingsView(db, organizationId);
}

/** Which organization a feed token belongs to, or null. */
export async function organizationForIcsToken(db: DbOrTx, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [row] = await db.select({ organizationId: bookingSettings.organizationId }).from(bookingSettings).where(eq(bookingSettings.icsToken, token));
  return row?.organizationId ?? null;
}
