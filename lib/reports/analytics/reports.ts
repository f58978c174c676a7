import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { analyticsReports, phoneNumbers, voiceAssistants } from "@/db/schema";
import { toCsv } from "@/lib/platform/text/csv";
import { badRequest, forbidden, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import type { AnalyticsFilters, AnalyticsQuery, CreateReportInput, ReportMetric } from "./schema";
import { getAnalytics, type Analytics } from "./service";

export type SavedReport = {
  id: string;
  name: string;
  metrics: ReportMetric[];
  range: CreateReportInput["range"];
  filters: AnalyticsFilters;
  createdAt: string;
};

/** The figures a report may hold, read off the analytics result. */
export function metricValue(a: Analytics, metric: ReportMetric): number | null {
  switch (metric) {
    case "errorRate":
      return a.performance.errorRate;
    case "avgSentiment":
      return a.performance.avgSentiment;
    default:
      return a.overview[metric];
  }
}

/** The analytics scope of a caller: their organization, or (admins asking for it) the platform. */
export function scopeFor(ctx: RequestContext, scope: AnalyticsQuery["scope"]) {
  if (scope === "platform") {
    if (!ctx.user.permissions.includes("analytics.read")) throw forbidden("Only administrators can see the whole platform's analytics.");
    return { organizationId: null };
  }
  return { organizationId: ctx.organizationId };
}

/** Filters must name the caller's own numbers and assistants (a 400 naming the field otherwise). */
export async function checkFilters(db: Db, organizationId: string | null, filters: AnalyticsFilters): Promise<void> {
  if (!organizationId) return;
  if (filters.phoneNumberId) {
    const [row] = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(and(eq(phoneNumbers.id, filters.phoneNumberId), eq(phoneNumbers.organizationId, organizationId)));
    if (!row) throw badRequest("phoneNumberId is not one of your phone numbers", { phoneNumberId: "Not one of your phone numbers" });
  }
  if (filters.assistantId) {
    const [row] = await db.select({ id: voiceAssistants.id }).from(voiceAssistants).where(and(eq(voiceAssistants.id, filters.assistantId), eq(voiceAssistants.organizationId, organizationId)));
    if (!row) throw badRequest("assistantId is not one of your assistants", { assistantId: "Not one of your assistants" });
  }
}

function toSaved(row: typeof analyticsReports.$inferSelect): SavedReport {
  return { id: row.id, name: row.name, metrics: row.metrics as ReportMetric[], range: row.range, filters: row.filters, createdAt: row.createdAt.toISOString() };
}

export async function createReport(db: Db, ctx: RequestContext, input: CreateReportInput): Promise<SavedReport> {
  await checkFilters(db, ctx.organizationId, input.filters);
  const [row] = await db
    .insert(analyticsReports)
    .values({ id: crypto.randomUUID(), organizationId: ctx.organizationId, createdBy: ctx.userId, name: input.name, metrics: [...new Set(input.metrics)], range: input.range, filters: input.filters })
    .returning();
  return toSaved(row);
}

export async function listReports(db: Db, organizationId: string): Promise<SavedReport[]> {
  const rows = await db.select().from(analyticsReports).where(eq(analyticsReports.organizationId, organizationId)).orderBy(desc(analyticsReports.createdAt));
  return rows.map(toSaved);
}

async function getReport(db: Db, organizationId: string, id: string): Promise<SavedReport> {
  const [row] = await db.select().from(analyticsReports).where(and(eq(analyticsReports.id, id), eq(analyticsReports.organizationId, organizationId)));
  if (!row) throw notFound("Report");
  return toSaved(row);
}

export async function deleteReport(db: Db, organizationId: string, id: string): Promise<{ success: true }> {
  const deleted = await db.delete(analyticsReports).where(and(eq(analyticsReports.id, id), eq(analyticsReports.organizationId, organizationId))).returning({ id: analyticsReports.id });
  if (!deleted.length) throw notFound("Report");
  return { success: true };
}

export type ReportRun = { report: SavedReport; from: string; to: string; values: { metric: ReportMetric; value: number | null }[] };

/** Runs a saved report now: its range ending now, its filters, its metrics. */
export async function runReport(db: Db, organizationId: string, id: string, now = new Date()): Promise<ReportRun> {
  const report = await getReport(db, organizationId, id);
  const analytics = await getAnalytics(db, { organizationId }, report.range, report.filters, now);
  return { report, from: analytics.from, to: analytics.to, values: report.metrics.map((metric) => ({ metric, value: metricValue(analytics, metric) })) };
}

export function reportCsv(run: ReportRun): string {
  return toCsv([["report", run.report.name], ["from", run.from], ["to", run.to], [], ["metric", "value"], ...run.values.map((v) => [v.metric, v.value])]);
}

/** The analytics export: the overview figures, then one row per day of the range (as the API returns them). */
export function analyticsCsv(a: Analytics): string {
  return toCsv([
    ["range", a.range],
    ["scope", a.scope],
    ["from", a.from],
    ["to", a.to],
    [],
    ["metric", "value"],
    ...Object.entries(a.overview).map(([k, v]) => [k, v]),
    ["errorRate", a.performance.errorRate],
    ["avgSentiment", a.performance.avgSentiment],
    [],
    ["day", "calls", "messages"],
    ...a.usage.byDay.map((d) => [d.day, d.calls, d.messages]),
  ]);
}

export function csvResponse(body: string, filename: string): Response {
  return new Response(body, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` } });
}
