import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/** A payment for a credit pack or a plan period, through Stripe or the simulated processor. */
export const payments = pgTable(
  "payment",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "simulated"] }).notNull(),
    kind: text("kind", { enum: ["credit_pack", "subscription"] }).notNull(),
    status: text("status", { enum: ["pending", "paid", "failed", "refunded"] }).notNull().default("pending"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    credits: integer("credits").notNull().default(0),
    planId: text("plan_id"),
    description: text("description").notNull(),
    invoiceNumber: text("invoice_number").notNull().unique(),
    providerSessionId: text("provider_session_id").unique(),
    providerPaymentId: text("provider_payment_id"),
    createdBy: text("created_by"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [index("payment_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** Webhook events already processed, by the provider's event id: a replay changes nothing. */
export const paymentEvents = pgTable(
  "payment_event",
  {
    id: text("id").primaryKey(),
    provider: text("provider", { enum: ["stripe", "simulated"] }).notNull(),
    type: text("type").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_event_provider_id_idx").on(t.provider, t.id)],
);
