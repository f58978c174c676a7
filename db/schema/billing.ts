import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * The credit ledger: every change to an organization's balance is one row, written in the same
 * transaction as the balance update (lib/workspace/billing/ledger.ts). `amount` is the change to the balance;
 * `units` the credits consumed by usage (Enterprise usage is recorded with amount 0: unlimited).
 */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["grant", "purchase", "usage", "adjustment", "refund"] }).notNull(),
    amount: integer("amount").notNull(),
    units: integer("units").notNull().default(0),
    /** What spent the credits (usage only): the master admin's credit usage split reads it. */
    category: text("category", { enum: ["voice_processing", "sms", "call_routing", "ai_analysis"] }),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason").notNull(),
    actorUserId: text("actor_user_id"),
    /** What caused it (a payment id, an assistant reply id, a plan period); unique per kind when set. */
    reference: text("reference"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_org_created_idx").on(t.organizationId, t.createdAt),
    index("credit_ledger_kind_category_idx").on(t.kind, t.category),
    /** Credits given back in a range (lib/reports/figures getCreditsUsed): the refunds alone, however long the usage history. */
    index("credit_ledger_org_refund_idx")
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.kind} = 'refund'`),
    /** A call's turns and credit-backs (lib/phone/routing/policy.ts callLedgerTotals), without scanning the organization's ledger. */
    index("credit_ledger_org_call_idx").on(t.organizationId, sql`(${t.metadata}->>'callId')`),
    uniqueIndex("credit_ledger_org_kind_reference_idx")
      .on(t.organizationId, t.kind, t.reference)
      .where(sql`${t.reference} is not null`),
  ],
);

/**
 * The ledger's sums kept as it is written (issue 29): one row per organization, kind and category
 * (`''` for rows without one), maintained by a statement trigger on credit_ledger (migration
 * credit_totals_sql) in the same transaction as each ledger write. The master admin's figures read
 * these few rows per organization instead of summing a history that grows with every call.
 */
export const creditTotals = pgTable(
  "credit_total",
  {
    organizationId: text("organization_id").notNull(),
    kind: text("kind", { enum: ["grant", "purchase", "usage", "adjustment", "refund"] }).notNull(),
    category: text("category").notNull().default(""),
    amount: bigint("amount", { mode: "number" }).notNull().default(0),
    units: bigint("units", { mode: "number" }).notNull().default(0),
    entries: bigint("entries", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.kind, t.category] })],
);

/**
 * Credits used per organization and UTC hour (usage rows' units), kept by the same trigger as
 * credit_total: the analytics "credits used" of a range reads its whole hours here and scans the
 * ledger only for the partial hour at each end (lib/reports/analytics/service.ts creditsUsedBetween).
 */
export const creditUsageHours = pgTable(
  "credit_usage_hour",
  {
    organizationId: text("organization_id").notNull(),
    hour: timestamp("hour", { withTimezone: true, mode: "string" }).notNull(),
    units: bigint("units", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.hour] }),
    // Platform analytics (every organization) over a range of hours.
    index("credit_usage_hour_hour_idx").on(t.hour),
  ],
);
