import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * A number's routing as stored (phone_number.routing). The vocabulary's lists, for forms and
 * validation, are in lib/phone/routing/constants.ts; these unions must name the same words.
 */
export type RoutingCondition = "blocked" | "vip" | "after_hours" | "holiday" | "intent" | "always";
export type RoutingAction = "assistant" | "forward" | "voicemail" | "reject";
export type RoutingIntent = "sales" | "support" | "billing";
export type RoutingRule = { condition: RoutingCondition; action: RoutingAction; to?: string | null; numbers?: string[]; intent?: RoutingIntent };
export type NumberRouting = { mode: "assistant_first" | "ring_first"; ringTimeoutSeconds: number; rules: RoutingRule[] };

/** The organization's block and allow lists (GET/POST/DELETE /api/blocklist). */
export const callerListEntries = pgTable(
  "caller_list_entry",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    list: text("list", { enum: ["block", "allow"] }).notNull(),
    note: text("note").notNull().default(""),
    /** Who put it there: the owner, or "Not spam" on a call (allow). */
    source: text("source", { enum: ["owner", "not_spam"] }).notNull().default("owner"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("caller_list_entry_org_number_idx").on(t.organizationId, t.phoneNumber)],
);

/**
 * Spam reports shared across organizations that opted in: only a hash of the number (SHA-256 with a
 * fixed pepper) and which organization reported it, so no organization learns another's callers.
 */
export const spamReports = pgTable(
  "spam_report",
  {
    numberHash: text("number_hash").notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("spam_report_hash_org_idx").on(t.numberHash, t.organizationId), index("spam_report_hash_idx").on(t.numberHash)],
);

/** Per organization: spam threshold and action, report sharing, and the monthly credit cap. */
export const callPolicies = pgTable("call_policy", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** 0–100: a call scoring at or above it is spam. */
  spamThreshold: integer("spam_threshold").notNull().default(70),
  spamAction: text("spam_action", { enum: ["block", "voicemail"] }).notNull().default("voicemail"),
  shareSpamReports: boolean("share_spam_reports").notNull().default(false),
  /** Credits per calendar month (UTC); null = no cap. */
  monthlyCapCredits: integer("monthly_cap_credits"),
  atCap: text("at_cap", { enum: ["voicemail_only", "keep_answering"] }).notNull().default("voicemail_only"),
  /** The month ("2026-11") the 75% alert was last raised, so it is raised once a month. */
  capAlertMonth: text("cap_alert_month"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
