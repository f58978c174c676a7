"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Activity, Clock, DollarSign, Download, Filter, Gauge, MessageSquare, PhoneCall, Timer, Users } from "lucide-react";
import { Bar, BarChart, CartesianGrid, Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { analyticsRanges, reportMetrics, type AnalyticsRange, type ReportMetric } from "@/lib/reports/analytics/schema";
import type { Analytics } from "@/lib/reports/analytics/service";
import type { ReportRun, SavedReport } from "@/lib/reports/analytics/reports";
import { compactNumber, growthText, minutesSeconds, NO_CALLS_IN_RANGE, NO_HEALTH_CHECKS, NO_REPLIES_IN_RANGE, wholeDollars } from "@/lib/reports/analytics/text";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import { sentimentText } from "@/lib/reports/figures";
import { isAdminRole } from "@/lib/identity/auth/roles";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { downloadCsv } from "./download";
import { chartColors, StatCard } from "./stat-card";

const metricLabels: Record<ReportMetric, string> = {
  totalCalls: "Total Calls",
  totalMessages: "Messages Sent",
  totalUsers: "Active Users",
  totalRevenue: "Revenue",
  avgCallDuration: "Avg Call Duration",
  successRate: "Success Rate",
  responseTime: "Avg Response Time",
  creditsUsed: "Credits Used",
  errorRate: "Error Rate",
  avgSentiment: "Avg Sentiment",
};

const bucketLabels = { under_1s: "Under 1 second", "1_3s": "1-3 seconds", over_3s: "Over 3 seconds" } as const;
const statusText = { operational: "Operational", degraded: "Degraded", offline: "Offline", unknown: "Unknown" } as const;

type Filters = { phoneNumberId: string; assistantId: string; direction: string };

function queryString(range: string, scope: string, f: Filters): string {
  const q = new URLSearchParams({ range, scope });
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  return q.toString();
}

function formatMetric(metric: ReportMetric, value: number | null): string {
  if (value === null) return "—";
  if (metric === "totalRevenue") return wholeDollars(value);
  if (metric === "successRate" || metric === "errorRate") return `${value}%`;
  if (metric === "responseTime") return `${value}s`;
  if (metric === "avgCallDuration") return minutesSeconds(value);
  if (metric === "avgSentiment") return `${value}/5.0`;
  return compactNumber(value);
}

/** /analytics: every figure from GET /api/analytics for the chosen range, scope and filters. */
export function AnalyticsScreen() {
  const { user } = useAuth();
  const admin = user ? isAdminRole(user.role) : false;
  const [range, setRange] = React.useState<AnalyticsRange>("7d");
  const [scope, setScope] = React.useState<"organization" | "platform">("organization");
  const [showFilters, setShowFilters] = React.useState(false);
  const [filters, setFilters] = React.useState<Filters>({ phoneNumberId: "", assistantId: "", direction: "" });
  const qs = queryString(range, scope, filters);
  const { data: a, isLoading, isError } = useQuery<Analytics>({ queryKey: [`/api/analytics?${qs}`] });
  const numbers = useQuery<{ id: string; phoneNumber: string; friendlyName: string }[]>({ queryKey: ["/api/phone-numbers"], enabled: showFilters });
  const assistants = useQuery<{ id: string; name: string }[]>({ queryKey: ["/api/voice-assistants"], enabled: showFilters });

  const exportCsv = async () => {
    try {
      await downloadCsv(`/api/analytics/export?${qs}`);
    } catch (error) {
      toast.error("Export Failed", { description: serverMessage(error) ?? "Please try again." });
    }
  };

  const noCalls = a ? a.overview.totalCalls === 0 : false;
  const growth = (g: { growth: number | null } | undefined) => (g ? growthText(g.growth) : undefined);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8" data-testid="analytics">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Analytics Dashboard</h1>
          <p className="text-muted-foreground">Real-time insights and performance metrics</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div className="flex flex-wrap rounded-md border" role="group" aria-label="Time range">
            {analyticsRanges.map((r) => (
              <Button key={r} size="sm" variant={r === range ? "default" : "ghost"} onClick={() => setRange(r)} data-testid={`range-${r}`} aria-pressed={r === range}>
                {r}
              </Button>
            ))}
          </div>
          {admin ? (
            <Select aria-label="Scope" value={scope} onChange={(e) => setScope(e.target.value as typeof scope)} data-testid="analytics-scope">
              <option value="organization">My organization</option>
              <option value="platform">Whole platform</option>
            </Select>
          ) : null}
          <Button variant="outline" size="sm" onClick={() => setShowFilters((v) => !v)} data-testid="analytics-filters" aria-expanded={showFilters}>
            <Filter aria-hidden />
            Filters
          </Button>
          <Button variant="outline" size="sm" onClick={() => void exportCsv()} data-testid="analytics-export">
            <Download aria-hidden />
            Export
          </Button>
        </div>
      </div>

      {showFilters ? (
        <Card data-testid="analytics-filter-panel">
          <CardContent className="grid gap-4 p-4 sm:grid-cols-3">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-number">Phone number</Label>
              <Select id="filter-number" value={filters.phoneNumberId} onChange={(e) => setFilters({ ...filters, phoneNumberId: e.target.value })} data-testid="filter-number">
                <option value="">All numbers</option>
                {(numbers.data ?? []).map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.friendlyName} ({n.phoneNumber})
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-assistant">Assistant</Label>
              <Select id="filter-assistant" value={filters.assistantId} onChange={(e) => setFilters({ ...filters, assistantId: e.target.value })} data-testid="filter-assistant">
                <option value="">All assistants</option>
                {(assistants.data ?? []).map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-direction">Direction</Label>
              <Select id="filter-direction" value={filters.direction} onChange={(e) => setFilters({ ...filters, direction: e.target.value })} data-testid="filter-direction">
                <option value="">Both</option>
                <option value="inbound">Inbound</option>
                <option value="outbound">Outbound</option>
              </Select>
            </div>
          </CardContent>
        </Card>
      ) : null}

      {isLoading ? (
        <div className="flex justify-center py-16" data-testid="analytics-loading">
          <Spinner />
        </div>
      ) : isError || !a ? (
        <p role="alert">We couldn&apos;t load the analytics. Please try again.</p>
      ) : (
        <>
          <div className="grid gap-3 md:grid-cols-2">
            <div className="rounded-lg border px-4 py-3 text-sm" data-testid="system-status-banner">
              <span className="font-medium">System Status: {statusText[a.systemStatus.status]}</span>
              <span className="text-muted-foreground"> · {a.systemStatus.checkedAt ? `checked ${new Date(a.systemStatus.checkedAt).toLocaleTimeString()}` : NO_HEALTH_CHECKS}</span>
              {a.systemStatus.problems.length ? (
                <ul className="mt-1 flex flex-col gap-1" data-testid="system-status-problems">
                  {a.systemStatus.problems.map((p) => (
                    <li key={p.component}>
                      <span className="capitalize">{p.name}</span> {p.problem}
                      {p.howTo ? (
                        <details className="inline text-muted-foreground">
                          <summary className="inline cursor-pointer underline underline-offset-2"> — how to install</summary>
                          <span className="block">{p.howTo}</span>
                        </details>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
            <div className="rounded-lg border px-4 py-3 text-sm" data-testid="insight-banner">
              <span className="font-medium">Performance Insight: </span>
              {a.insight}
            </div>
          </div>

          <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Overview">
            <StatCard label="Total Calls" icon={PhoneCall} testId="card-calls" value={compactNumber(a.overview.totalCalls)} note={growth(a.trends.calls)} />
            <StatCard label="Messages Sent" icon={MessageSquare} testId="card-messages" value={compactNumber(a.overview.totalMessages)} note={growth(a.trends.messages)} />
            <StatCard label="Revenue" icon={DollarSign} testId="card-revenue" value={wholeDollars(a.overview.totalRevenue)} note={growth(a.trends.revenue)} />
            <StatCard label="Active Users" icon={Users} testId="card-users" value={compactNumber(a.overview.totalUsers)} note={growth(a.trends.users)} />
            <StatCard label="Success Rate" icon={Gauge} testId="card-success" value={a.overview.successRate === null ? "—" : `${a.overview.successRate}%`} note={a.overview.successRate === null ? NO_CALLS_IN_RANGE : `${a.performance.finishedCalls} finished calls`} />
            <StatCard label="Avg Response Time" icon={Timer} testId="card-response" value={a.overview.responseTime === null ? "—" : `${a.overview.responseTime}s`} note={a.overview.responseTime === null ? NO_REPLIES_IN_RANGE : `${a.performance.replies} replies`} />
            <StatCard label="Avg Call Duration" icon={Clock} testId="card-duration" value={minutesSeconds(a.overview.avgCallDuration)} note={a.overview.avgCallDuration === null ? NO_CALLS_IN_RANGE : undefined} />
            <StatCard
              label="System Uptime"
              icon={Activity}
              testId="card-uptime"
              value={a.performance.uptime.percent === null ? "—" : `${a.performance.uptime.percent}%`}
              note={a.performance.uptime.runs ? `${a.performance.uptime.runs} health checks in range` : NO_HEALTH_CHECKS}
            />
          </section>

          <Tabs defaultValue="usage">
            <TabsList>
              <TabsTrigger value="usage">Usage Analytics</TabsTrigger>
              <TabsTrigger value="performance">Performance</TabsTrigger>
              <TabsTrigger value="insights">AI Insights</TabsTrigger>
              <TabsTrigger value="reports">Custom Reports</TabsTrigger>
            </TabsList>

            <TabsContent value="usage" className="grid gap-4 lg:grid-cols-2">
              <ChartCard title="Calls and messages by day" testId="chart-by-day" empty={a.usage.byDay.every((d) => d.calls + d.messages === 0) ? NO_CALLS_IN_RANGE : null}>
                <BarChart data={a.usage.byDay}>
                  <CartesianGrid strokeDasharray="3 3" opacity={0.2} />
                  <XAxis dataKey="day" fontSize={11} />
                  <YAxis fontSize={11} allowDecimals={false} />
                  <Tooltip />
                  <Legend />
                  <Bar dataKey="calls" name="Calls" fill={chartColors[0]} />
                  <Bar dataKey="messages" name="Messages" fill={chartColors[1]} />
                </BarChart>
              </ChartCard>
              <ChartCard title="Calls and messages by hour (UTC)" testId="chart-by-hour" empty={a.usage.byHour.every((d) => d.calls + d.messages === 0) ? NO_CALLS_IN_RANGE : null}>
                <BarChart data={a.usage.byHour}>
                  <CartesianGrid strokeDasharray="3 3" opacity={0.2} />
                  <XAxis dataKey="hour" fontSize={11} />
                  <YAxis fontSize={11} allowDecimals={false} />
                  <Tooltip />
                  <Bar dataKey="calls" name="Calls" fill={chartColors[0]} />
                  <Bar dataKey="messages" name="Messages" fill={chartColors[1]} />
                </BarChart>
              </ChartCard>
              <ChartCard title="Calls by region" testId="chart-by-region" empty={noCalls ? NO_CALLS_IN_RANGE : null}>
                <BarChart data={a.usage.byRegion} layout="vertical">
                  <XAxis type="number" fontSize={11} allowDecimals={false} />
                  <YAxis type="category" dataKey="region" width={130} fontSize={11} />
                  <Tooltip />
                  <Bar dataKey="calls" name="Calls" fill={chartColors[2]} />
                </BarChart>
              </ChartCard>
              <Card>
                <CardHeader>
                  <CardTitle>Regions</CardTitle>
                </CardHeader>
                <CardContent>
                  {noCalls ? (
                    <p className="text-sm text-muted-foreground">{NO_CALLS_IN_RANGE}</p>
                  ) : (
                    <ul className="grid gap-1 text-sm" data-testid="region-list">
                      {a.usage.byRegion.map((r) => (
                        <li key={r.region} className="flex justify-between">
                          <span>{r.region}</span>
                          <span className="tabular-nums">
                            {compactNumber(r.calls)} ({r.percent}%)
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </CardContent>
              </Card>
            </TabsContent>

            <TabsContent value="performance" className="grid gap-4 lg:grid-cols-2">
              <ChartCard title="Response time distribution" testId="chart-response" empty={a.performance.replies === 0 ? NO_REPLIES_IN_RANGE : null}>
                <BarChart data={a.performance.responseTimes.map((b) => ({ ...b, label: bucketLabels[b.bucket] }))}>
                  <XAxis dataKey="label" fontSize={11} />
                  <YAxis fontSize={11} unit="%" />
                  <Tooltip />
                  <Bar dataKey="percent" name="Share of replies (%)" fill={chartColors[0]} />
                </BarChart>
              </ChartCard>
              <Card>
                <CardHeader>
                  <CardTitle>Error analysis</CardTitle>
                </CardHeader>
                <CardContent>
                  {a.performance.errorRate === null ? (
                    <p className="text-sm text-muted-foreground">{NO_CALLS_IN_RANGE}</p>
                  ) : (
                    <ul className="grid gap-2 text-sm" data-testid="error-list">
                      <li className="flex justify-between">
                        <span>API Timeouts</span>
                        <span className="tabular-nums">{a.performance.errors.timeout}%</span>
                      </li>
                      <li className="flex justify-between">
                        <span>Authentication Errors</span>
                        <span className="tabular-nums">{a.performance.errors.authentication}%</span>
                      </li>
                      <li className="flex justify-between">
                        <span>Processing Errors</span>
                        <span className="tabular-nums">{a.performance.errors.processing}%</span>
                      </li>
                      <li className="flex justify-between border-t pt-2 font-medium">
                        <span>Total error rate</span>
                        <span className="tabular-nums" data-testid="error-rate">
                          {a.performance.errorRate}%
                        </span>
                      </li>
                    </ul>
                  )}
                </CardContent>
              </Card>
            </TabsContent>

            <TabsContent value="insights" className="grid gap-4 lg:grid-cols-2">
              <Card>
                <CardHeader>
                  <CardTitle>Top intents</CardTitle>
                </CardHeader>
                <CardContent>
                  {a.performance.topIntents.length === 0 ? (
                    <p className="text-sm text-muted-foreground">{NO_CALLS_IN_RANGE}</p>
                  ) : (
                    <ul className="grid gap-1 text-sm" data-testid="intent-list">
                      {a.performance.topIntents.map((i) => (
                        <li key={i.intent} className="flex justify-between">
                          <span className="capitalize">{i.intent.replace(/_/g, " ")}</span>
                          <span className="tabular-nums">{i.percent}%</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </CardContent>
              </Card>
              <ChartCard
                title={
                  a.performance.avgSentiment === null
                    ? "Sentiment"
                    : sentimentText({ analysedCalls: a.performance.analysedCalls, average: a.performance.avgSentiment, positivePercent: a.performance.positivePercent })
                }
                testId="chart-sentiment"
                empty={a.performance.analysedCalls === 0 ? NO_CALLS_IN_RANGE : null}
              >
                <PieChart>
                  <Pie data={a.performance.sentiment.filter((s) => s.count > 0)} dataKey="count" nameKey="label" outerRadius={90} label={(p) => `${p.name} ${(p.payload as { percent: number }).percent}%`}>
                    {a.performance.sentiment
                      .filter((s) => s.count > 0)
                      .map((s, i) => (
                        <Cell key={s.label} fill={chartColors[i % chartColors.length]} />
                      ))}
                  </Pie>
                  <Tooltip />
                </PieChart>
              </ChartCard>
            </TabsContent>

            <TabsContent value="reports">
              <CustomReports range={range} filters={filters} />
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}

function ChartCard({ title, testId, empty, children }: { title: string; testId: string; empty: string | null; children: React.ReactElement }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent data-testid={testId}>
        {empty ? (
          <p className="py-12 text-center text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ResponsiveContainer width="100%" height={260}>
            {children}
          </ResponsiveContainer>
        )}
      </CardContent>
    </Card>
  );
}

const REPORTS_KEY = ["/api/analytics/reports"] as const;

function CustomReports({ range, filters }: { range: AnalyticsRange; filters: Filters }) {
  const queryClient = useQueryClient();
  const reports = useQuery<{ reports: SavedReport[] }>({ queryKey: REPORTS_KEY });
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState("");
  const [metrics, setMetrics] = React.useState<ReportMetric[]>(["totalCalls", "successRate"]);
  const [run, setRun] = React.useState<ReportRun | null>(null);
  const create = useMutation({
    mutationFn: async () => {
      const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
      return (await apiRequest("POST", "/api/analytics/reports", { name, metrics, range, filters: active })).json() as Promise<SavedReport>;
    },
    onSuccess: async (report) => {
      toast.success("Report Saved", { description: `${report.name} can be run and exported from this tab.` });
      setOpen(false);
      setName("");
      await queryClient.invalidateQueries({ queryKey: REPORTS_KEY });
    },
    onError: (error) => toast.error("Save Failed", { description: serverMessage(error) ?? "Please try again." }),
  });
  const runReport = async (id: string) => {
    try {
      setRun((await (await apiRequest("GET", `/api/analytics/reports/${encodeURIComponent(id)}`)).json()) as ReportRun);
    } catch (error) {
      toast.error("Run Failed", { description: serverMessage(error) ?? "Please try again." });
    }
  };
  const remove = async (id: string) => {
    await apiRequest("DELETE", `/api/analytics/reports/${encodeURIComponent(id)}`);
    if (run?.report.id === id) setRun(null);
    await queryClient.invalidateQueries({ queryKey: REPORTS_KEY });
  };

  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle>Custom Reports</CardTitle>
        <Button onClick={() => setOpen(true)} data-testid="create-report">
          Create Report
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {reports.data?.reports.length ? (
          <ul className="grid gap-2" data-testid="report-list">
            {reports.data.reports.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm">
                <span>
                  <span className="font-medium">{r.name}</span> · {r.range} · {r.metrics.map((m) => metricLabels[m]).join(", ")}
                </span>
                <span className="flex gap-2">
                  <Button size="sm" variant="outline" onClick={() => void runReport(r.id)} data-testid="run-report">
                    Run
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => void downloadCsv(`/api/analytics/reports/${encodeURIComponent(r.id)}/export`)} data-testid="export-report">
                    Export
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void remove(r.id)}>
                    Delete
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No saved reports yet. Create one from the current range and filters.</p>
        )}
        {run ? (
          <div className="rounded-md border p-3" data-testid="report-result">
            <p className="mb-2 text-sm font-medium">
              {run.report.name}: {new Date(run.from).toLocaleString()} – {new Date(run.to).toLocaleString()}
            </p>
            <dl className="grid grid-cols-2 gap-1 text-sm">
              {run.values.map((v) => (
                <React.Fragment key={v.metric}>
                  <dt className="text-muted-foreground">{metricLabels[v.metric]}</dt>
                  <dd className="tabular-nums">{formatMetric(v.metric, v.value)}</dd>
                </React.Fragment>
              ))}
            </dl>
          </div>
        ) : null}
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent data-testid="create-report-dialog">
          <DialogHeader>
            <DialogTitle>Create Report</DialogTitle>
            <DialogDescription>Saves the metrics with the current range ({range}) and filters.</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-3">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="report-name">Name</Label>
              <Input id="report-name" value={name} onChange={(e) => setName(e.target.value)} data-testid="report-name" />
            </div>
            <fieldset className="grid grid-cols-2 gap-2 text-sm">
              <legend className="mb-1 text-sm font-medium">Metrics</legend>
              {reportMetrics.map((m) => (
                <label key={m} className="flex items-center gap-2">
                  <input type="checkbox" checked={metrics.includes(m)} onChange={(e) => setMetrics(e.target.checked ? [...metrics, m] : metrics.filter((x) => x !== m))} data-testid={`metric-${m}`} />
                  {metricLabels[m]}
                </label>
              ))}
            </fieldset>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => create.mutate()} disabled={create.isPending} data-testid="save-report">
              {create.isPending ? "Saving..." : "Save Report"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
