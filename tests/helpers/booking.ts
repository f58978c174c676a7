import { eq } from "drizzle-orm";
import { organizations, type BusinessProfile } from "@/db/schema";
import { getDb } from "@/lib/platform/database";
import { createResource } from "@/lib/scheduling/resources";
import { updateBookingSettings } from "@/lib/scheduling/settings";
import { createService } from "@/lib/knowledge/services/service";
import { registerTestUser, type TestAccount } from "./accounts";
import { withoutNotice } from "./compliance";

/** Opening hours on every day of the week. */
export function everyDay(open: string, close: string): BusinessProfile["weeklyHours"] {
  const range = [{ open, close }];
  return { mon: range, tue: range, wed: range, thu: range, fri: range, sat: range, sun: range };
}

export async function setProfile(organizationId: string, profile: BusinessProfile) {
  const db = await getDb();
  await db.update(organizations).set({ businessProfile: profile, name: "Acme Salon" }).where(eq(organizations.id, organizationId));
}

/**
 * A fresh organization with a time zone, hours and one service. `staff`: that many staff members
 * (following the business hours) linked to the service; 0 = the business's own calendar.
 */
export async function bookingOrg(
  options: { timezone?: string; hours?: BusinessProfile["weeklyHours"]; staff?: number; duration?: number; bufferAfter?: number; interval?: number } = {},
): Promise<{ account: TestAccount; organizationId: string; serviceId: string; resourceIds: string[] }> {
  const account = await registerTestUser();
  const organizationId = account.organizationId;
  await withoutNotice(organizationId);
  await setProfile(organizationId, { timezone: options.timezone ?? "America/New_York", weeklyHours: options.hours ?? everyDay("09:00", "17:00") });
  const db = await getDb();
  const resourceIds: string[] = [];
  for (let i = 0; i < (options.staff ?? 0); i++) resourceIds.push((await createResource(db, organizationId, { name: `Staff ${i + 1}`, kind: "staff", followsBusinessHours: true, weeklyHours: null, isActive: true })).id);
  const service = await createService(db, organizationId, {
    name: "Haircut",
    description: "",
    durationMinutes: options.duration ?? 60,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: options.bufferAfter ?? 0,
    priceCents: null,
    priceText: null,
    bookable: true,
    isActive: true,
    resourceIds,
  });
  if (options.interval) await updateBookingSettings(db, organizationId, { slotIntervalMinutes: options.interval });
  return { account, organizationId, serviceId: service.id, resourceIds };
}

/** A fixed clock the test moves by hand. */
export function fixedClock(start: string) {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (iso: string) => {
      t = new Date(iso).getTime();
    },
    advance: (ms: number) => {
      t += ms;
    },
  };
}
