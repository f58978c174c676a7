import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { calls, messages } from "./telephony";
import { organizations } from "./organizations";

/** What a health probe checked (lib/reports/analytics/health.ts). */
export const healthComponents = ["database", "llm", "tts", "stt", "telephony"] as const;
export type HealthComponent = (typeof healthComponents)[number];
export const healthStatuses = ["operational", "degraded", "offline", "unknown"] as const;
export type HealthStatus = (typeof healthStatuses)[number];

/**
 * One probe of one component, written by the health-check job every minute (lib/reports/analytics/health.ts).
 * Platform uptime is the share of probe runs whose database and language-model probes answered.
 */
export const healthChecks = pgTable(
  "health_check",
  {
    id: text("id").primaryKey(),
    /** The run the probe belongs to: every component of one run shares it. */
    runId: text("run_id").notNull(),
    component: text("component", { enum: healthComponents }).notNull(),
    status: text("status", { enum: healthStatuses }).notNull(),
    latencyMs: integer("latency_ms"),
    detail: text("detail").notNull().default(""),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("health_check_checked_idx").on(t.checkedAt), index("health_check_component_checked_idx").on(t.component, t.checkedAt)],
);

/** A saved analytics report: a named set of metrics, a range and filters, run and exported again. */
export const analyticsReports = pgTable(
  "analytics_report",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    createdBy: text("created_by"),
    name: text("name").notNull(),
    metrics: jsonb("metrics").$type<string[]>().notNull(),
    range: text("range", { enum: ["24h", "7d", "30d", "90d"] }).notNull(),
    filters: jsonb("filters").$type<{ phoneNumberId?: string; assistantId?: string; direction?: "inbound" | "outbound" }>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("analytics_report_org_created_idx").on(t.organizationId, t.createdAt)],
);

export const logisticsKinds = ["order", "delivery", "pickup"] as const;
export type LogisticsKind = (typeof logisticsKinds)[number];

/** A request the assistant captured (an order, a delivery, a pickup) for the team to work through. */
export const logisticsRequests = pgTable(
  "logistics_request",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    callId: text("call_id").references(() => calls.id, { onDelete: "set null" }),
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    kind: text("kind", { enum: logisticsKinds }).notNull(),
    description: text("description").notNull(),
    contact: text("contact"),
    /** Where it came from: a call, a text, or the CRM voice test. */
    source: text("source", { enum: ["call", "sms", "test"] }).notNull(),
    status: text("status", { enum: ["pending", "completed"] }).notNull().default("pending"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("logistics_request_org_status_created_idx").on(t.organizationId, t.status, t.createdAt)],
);

/** The summed columns every rollup row holds (lib/reports/analytics/rollup.ts ROLLUP_METRICS). */
const rollupMetricColumns = () => ({
    n: integer("n").notNull().default(0),
    served: integer("served").notNull().default(0),
    unserved: integer("unserved").notNull().default(0),
    timeouts: integer("timeouts").notNull().default(0),
    auth: integer("auth").notNull().default(0),
    processing: integer("processing").notNull().default(0),
    durationSum: bigint("duration_sum", { mode: "number" }).notNull().default(0),
    durationN: integer("duration_n").notNull().default(0),
    scoreSum: bigint("score_sum", { mode: "number" }).notNull().default(0),
    scoreN: integer("score_n").notNull().default(0),
    s5: integer("s5").notNull().default(0),
    s4: integer("s4").notNull().default(0),
    s3: integer("s3").notNull().default(0),
    s12: integer("s12").notNull().default(0),
    msSum: bigint("ms_sum", { mode: "number" }).notNull().default(0),
    under1: integer("under1").notNull().default(0),
    mid: integer("mid").notNull().default(0),
    over3: integer("over3").notNull().default(0),
    /** Calls by their three-way sentiment label (the CRM voice figures). */
    pos: integer("pos").notNull().default(0),
    neu: integer("neu").notNull().default(0),
    neg: integer("neg").notNull().default(0),
});

/**
 * Per-day rollups behind /api/analytics (lib/reports/analytics/rollup.ts, docs/analytics.md#rollups): one
 * row per organization, UTC day, source, dimension value and filter combination (number, assistant,
 * direction), holding the sums the analytics figures are made of. Written only by the
 * `analytics.rollup` job, which recomputes whole days that triggers marked in `analytics_dirty_day`.
 */
export const analyticsDays = pgTable(
  "analytics_day",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    source: text("source", { enum: ["call", "message", "reply", "action", "email"] }).notNull(),
    /** call: hour | area | intent; message: hour; reply, action, email: all (key: reply source, action type, null). */
    dim: text("dim", { enum: ["hour", "area", "intent", "all"] }).notNull(),
    key: text("key"),
    phoneNumberId: text("phone_number_id"),
    assistantId: text("assistant_id"),
    direction: text("direction", { enum: ["inbound", "outbound"] }),
    ...rollupMetricColumns(),
  },
  (t) => [
    index("analytics_day_org_source_day_idx").on(t.organizationId, t.source, t.day),
    // One organization's single dimension (the previous period's totals, CRM voice, rollupTotals): without it
    // the planner may pick the platform index below and filter every organization's rows.
    index("analytics_day_org_source_dim_day_idx").on(t.organizationId, t.source, t.dim, t.day),
    // Platform figures (every organization): one source and dimension over a range of days.
    index("analytics_day_source_dim_day_idx").on(t.source, t.dim, t.day),
  ],
);

/**
 * Days whose rollup is out of date: set by triggers on call, message and assistant_reply (migration
 * 0018), cleared by the `analytics.rollup` job after it recomputes the day. Reads scan these days live.
 */
export const analyticsDirtyDays = pgTable(
  "analytics_dirty_day",
  {
    organizationId: text("organization_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    version: integer("version").notNull().default(1),
    markedAt: timestamp("marked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/**
 * Counts kept as rows change (issue 29): an organization's calls, texts and assistant replies (with
 * their summed reply time), maintained by statement triggers on call, message and assistant_reply
 * (migration scale_blobs_retention_sql), so the dashboard reads one row instead of counting a history.
 */
export const organizationCounts = pgTable("organization_count", {
  organizationId: text("organization_id").primaryKey(),
  calls: bigint("calls", { mode: "number" }).notNull().default(0),
  messages: bigint("messages", { mode: "number" }).notNull().default(0),
  replyMsSum: bigint("reply_ms_sum", { mode: "number" }).notNull().default(0),
  replyMsCount: bigint("reply_ms_count", { mode: "number" }).notNull().default(0),
});


/**
 * Per-hour rollups behind the 24-hour analytics range (issue 29): the same rows as `analytics_day`, one
 * set per organization and UTC hour, kept for the last 182 days (the 24h range, and the partial first
 * and last days of the longer ranges and of the periods before them: lib/reports/analytics/rollup.ts withHours). Written only by the `analytics.rollup-organization` job from hours marked in
 * `analytics_dirty_hour` by the same triggers that mark dirty days (migration analytics_hourly).
 */
export const analyticsHours = pgTable(
  "analytics_hour",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true, mode: "string" }).notNull(),
    source: text("source", { enum: ["call", "message", "reply", "action", "email"] }).notNull(),
    dim: text("dim", { enum: ["hour", "area", "intent", "all"] }).notNull(),
    key: text("key"),
    phoneNumberId: text("phone_number_id"),
    assistantId: text("assistant_id"),
    direction: text("direction", { enum: ["inbound", "outbound"] }),
    ...rollupMetricColumns(),
  },
  (t) => [
    index("analytics_hour_org_source_hour_idx").on(t.organizationId, t.source, t.hour),
    index("analytics_hour_org_source_dim_hour_idx").on(t.organizationId, t.source, t.dim, t.hour),
    index("analytics_hour_source_dim_hour_idx").on(t.source, t.dim, t.hour),
    // The minute job's prune of hours older than those kept (182 days), without scanning the table.
    index("analytics_hour_hour_idx").on(t.hour),
  ],
);

/** Hours (of the last 182 days) whose hourly rollup is out of date; read live until recomputed. */
export const analyticsDirtyHours = pgTable(
  "analytics_dirty_hour",
  {
    organizationId: text("organization_id").notNull(),
    hour: timestamp("hour", { withTimezone: true, mode: "string" }).notNull(),
    markedAt: timestamp("marked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.hour] })],
);
