import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
/** Local wall-clock times "HH:MM" (24 h) in the profile's time zone; close > open. */
export type TimeRange = { open: string; close: string };

/**
 * What the business tells callers, and the only facts the assistant states (issue: the receptionist).
 * Services with durations and prices live in the `service` table (db/schema/scheduling.ts).
 */
export type BusinessProfile = {
  /** IANA time zone, e.g. "America/Los_Angeles"; hours, holidays and bookings are read in it. */
  timezone?: string;
  address?: string;
  phone?: string;
  website?: string;
  /** ISO 4217 code of the services' prices (default USD). */
  currency?: string;
  /** Opening hours per weekday (several ranges allowed, e.g. a lunch break); a missing or empty day is closed. */
  weeklyHours?: Partial<Record<Weekday, TimeRange[]>>;
  /** Dates that differ from the weekly hours: closed (no `hours`) or open with special hours. "YYYY-MM-DD". */
  holidays?: { date: string; name?: string; hours?: TimeRange[] }[];
  policies?: { title: string; text: string }[];
  faqs?: { question: string; answer: string }[];
  /** Earlier free-text hours ("Mon–Fri 8 AM–6 PM"), kept for profiles written before weeklyHours. */
  hours?: string;
  /** Earlier list of service names, kept for profiles written before the service table. */
  services?: string[];
};

export const organizations = pgTable("organization", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  subscriptionTier: text("subscription_tier", { enum: ["free", "pro", "enterprise"] }).notNull().default("free"),
  subscriptionStatus: text("subscription_status", { enum: ["active", "trialing", "past_due", "suspended", "cancelled"] })
    .notNull()
    .default("active"),
  /** Current credit balance; changed only by lib/workspace/billing/ledger.ts, never below zero. */
  creditBalance: integer("credit_balance").notNull().default(0),
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  /** A downgrade chosen during the period: it takes effect at renewal, with no charge (lib/workspace/billing/plan-change.ts). */
  scheduledTier: text("scheduled_tier", { enum: ["free", "pro", "enterprise"] }),
  /** The current billing period; usage percent and "used this period" are measured within it. */
  currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull().defaultNow(),
  currentPeriodEnd: timestamp("current_period_end", { withTimezone: true })
    .notNull()
    .default(sql`now() + interval '1 month'`),
  /** When an owner closed the dashboard's setup checklist (lib/consoles/onboarding/checklist.ts); null while it shows. */
  setupChecklistDismissedAt: timestamp("setup_checklist_dismissed_at", { withTimezone: true }),
  businessProfile: jsonb("business_profile").$type<BusinessProfile>().notNull().default({}),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
