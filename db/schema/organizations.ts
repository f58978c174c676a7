import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export type BusinessProfile = {
  hours?: string;
  address?: string;
  services?: string[];
  timezone?: string;
  phone?: string;
};

export const organizations = pgTable("organization", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  subscriptionTier: text("subscription_tier", { enum: ["free", "pro", "enterprise"] }).notNull().default("free"),
  subscriptionStatus: text("subscription_status", { enum: ["active", "trialing", "past_due", "suspended", "cancelled"] })
    .notNull()
    .default("active"),
  /** Current credit balance; changed only by lib/billing/ledger.ts, never below zero. */
  creditBalance: integer("credit_balance").notNull().default(0),
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  /** The current billing period; usage percent and "used this period" are measured within it. */
  currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull().defaultNow(),
  currentPeriodEnd: timestamp("current_period_end", { withTimezone: true })
    .notNull()
    .default(sql`now() + interval '1 month'`),
  businessProfile: jsonb("business_profile").$type<BusinessProfile>().notNull().default({}),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
