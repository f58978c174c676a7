import { z } from "zod";

/** Analytics (docs/analytics.md): one schema per operation, shared by the screens, the routes and the tests. */

export const analyticsRanges = ["24h", "7d", "30d", "90d"] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];
export const RANGE_HOURS: Record<AnalyticsRange, number> = { "24h": 24, "7d": 7 * 24, "30d": 30 * 24, "90d": 90 * 24 };

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const analyticsFilters = z.object({
  phoneNumberId: z.preprocess(blankToUndefined, z.string().trim().max(200, "phoneNumberId is at most 200 characters").optional()),
  assistantId: z.preprocess(blankToUndefined, z.string().trim().max(200, "assistantId is at most 200 characters").optional()),
  direction: z.preprocess(blankToUndefined, z.enum(["inbound", "outbound"], "direction must be inbound or outbound").optional()),
});
export type AnalyticsFilters = z.infer<typeof analyticsFilters>;

/** GET /api/analytics?range=&scope=&phoneNumberId=&assistantId=&direction= (and its CSV export). */
export const analyticsQuery = analyticsFilters.extend({
  range: z.preprocess(blankToUndefined, z.enum(analyticsRanges, "range must be 24h, 7d, 30d or 90d").default("7d")),
  scope: z.preprocess(blankToUndefined, z.enum(["organization", "platform"], "scope must be organization or platform").default("organization")),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

/** The metrics a custom report may hold (the overview's figures). */
export const reportMetrics = [
  "totalCalls",
  "totalMessages",
  "totalUsers",
  "totalRevenue",
  "avgCallDuration",
  "successRate",
  "responseTime",
  "creditsUsed",
  "errorRate",
  "avgSentiment",
] as const;
export type ReportMetric = (typeof reportMetrics)[number];

/** POST /api/analytics/reports: a named set of metrics, a range and filters. */
export const createReportInput = z.object({
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  metrics: z
    .array(z.enum(reportMetrics, `metrics may hold ${reportMetrics.join(", ")}`), { error: "metrics must be a list" })
    .min(1, "Choose at least one metric")
    .max(reportMetrics.length),
  range: z.enum(analyticsRanges, "range must be 24h, 7d, 30d or 90d").default("7d"),
  filters: analyticsFilters.default({}),
});
export type CreateReportInput = z.infer<typeof createReportInput>;
export type CreateReportValues = z.input<typeof createReportInput>;
