import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * A number's routing (phone_number.routing, docs/telephony.md#routing): how a call is first
 * offered (the assistant, or the business's own phone ringing first), and the rules evaluated in
 * order before that default.
 */
export const routingConditions = ["blocked", "vip", "after_hours", "holiday", "intent", "always"] as const;
export type RoutingCondition = (typeof routingConditions)[number];
export const routingActions = ["assistant", "forward", "voicemail", "reject"] as const;
export type RoutingAction = (typeof routingActions)[number];
export const routingIntents = ["sales", "support", "billing"] as const;
export type RoutingIntent = (typeof routingIntents)[number];

export type RoutingRule = {
  condition: RoutingCondition;
  action: RoutingAction;
  /** The number a "forward" rings. */
  to?: string | null;
  /** For "vip" and "blocked": the callers it names (E.164). */
  numbers?: string[];
  /** For "intent": what the caller wants. */
  intent?: RoutingIntent;
};

export type NumberRouting = {
  /** assistant_first: the assistant answers and transfers on request; ring_first: the forward-to number rings, then the assistant. */
  mode: "assistant_first" | "ring_first";
  ringTimeoutSeconds: number;
  rules: RoutingRule[];
};

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
