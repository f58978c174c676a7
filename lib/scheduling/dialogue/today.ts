import "server-only";
import type { Db } from "@/db/client";
import { organizationBooking } from "../settings";
import { toZoned } from "../time";

/**
 * The business's timezone and its local date at `now`: where a search for free times starts, for
 * the dialogue (./conversation.ts) and the model's check_availability tool (./model-tools.ts).
 */
export async function businessToday(db: Db, organizationId: string, now: Date): Promise<{ timezone: string; today: string }> {
  const { timezone } = await organizationBooking(db, organizationId);
  return { timezone, today: toZoned(now, timezone).date };
}
