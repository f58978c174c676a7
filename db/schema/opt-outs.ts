import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * Numbers that replied STOP to an organization's texts: they get no confirmation, reminder or any
 * other SMS until they opt back in (START deletes the row). The phone loop writes it from the SMS
 * webhook; appointment texts read it (lib/scheduling/messaging.ts).
 */
export const smsOptOuts = pgTable(
  "sms_opt_out",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** E.164. */
    phone: text("phone").notNull(),
    optedOutAt: timestamp("opted_out_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sms_opt_out_org_phone_idx").on(t.organizationId, t.phone), index("sms_opt_out_phone_idx").on(t.phone)],
);
