"use client";

import { sentimentText } from "@/lib/reports/figures";
import { HealthProblems } from "@/components/reports/figures/system-health";
import * as React from "react";
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Clock, MessageSquare, PhoneCall, RefreshCw, Smile, Truck } from "lucide-react";
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { toast } from "sonner";
import { StatCard, chartColors } from "@/components/reports/analytics/stat-card";
import { PhonePanel } from "@/components/phone/phone-numbers/phone-panel";
import { usePhoneNumbers } from "@/components/phone/phone-numbers/use-phone-numbers";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { actionLabel } from "@/lib/reports/analytics/text";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import { DEFAULT_TEST_CONTENT, crmTestTypes, type CrmTestType } from "@/lib/reports/crm-voice/schema";
import type { CrmAnalytics, CrmHealth, CrmTestResult } from "@/lib/reports/crm-voice/service";

const ANALYTICS_KEY = ["/api/crm-voice/analytics"] as const;
const HEALTH_KEY = ["/api/crm-voice/health"] as const;

/** Spec mapping: healthy or operational → Operational; degraded → Degraded; unhealthy → Offline; anything else → Unknown. */
function statusLabel(status: string | undefined): "Operational" | "Degraded" | "Offline" | "Unknown" {
  if (status === "healthy" || status === "operational") return "Operational";
  if (status === "degraded") return "Degraded";
  if (status === "unhealthy") return "Offline";
  return "Unknown";
}

const badgeClass = { Operational: "bg-green-700 text-white", Degraded: "bg-yellow-500 text-black", Offline: "bg-red-600 text-white", Unknown: "bg-muted text-foreground" } as const;

function StatusBadge({ status, testId }: { status: string | undefined; testId: string }) {
  const label = statusLabel(status);
  return (
    <Badge className={badgeClass[label]} data-testid={testId}>
      {label}
    </Badge>
  );
}

const serviceRows: { key: keyof CrmHealth["services"]; label: string }[] = [
  { key: "claude", label: "Language model" },
  { key: "elevenlabs", label: "Speech synthesis" },
  { key: "deepgram", label: "Speech recognition" },
  { key: "crmDatabase", label: "CRM database" },
];

/** /crm-voice: communications, sentiment, actions and logistics from the organization's records; health from real probes. */
export function CrmVoiceScreen() {
  const queryClient = useQueryClient();
  const analytics = useQuery<CrmAnalytics>({ queryKey: ANALYTICS_KEY, refetchInterval: 30_000 });
  const health = useQuery<CrmHealth>({ queryKey: HEALTH_KEY, refetchInterval: 10_000 });
  const numbers = usePhoneNumbers();
  const [testType, setTestType] = React.useState<CrmTestType | null>(null);
  const [callOpen, setCallOpen] = React.useState(false);
  const [noNumber, setNoNumber] = React.useState(false);
  const a = analytics.data;
  const h = health.data;
  const firstNumber = numbers.data?.[0];

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ANALYTICS_KEY }), queryClient.invalidateQueries({ queryKey: HEALTH_KEY })]);
  const complete = useMutation({
    mutationFn: async ({ id, status }: { id: string; status: "pending" | "completed" }) => (await apiRequest("PATCH", `/api/crm-voice/logistics/${encodeURIComponent(id)}`, { status })).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ANALYTICS_KEY }),
    onError: (error) => toast.error("Update Failed", { description: serverMessage(error) ?? "Please try again." }),
  });

  const processVoiceCall = () => (firstNumber ? setCallOpen(true) : setNoNumber(true));

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8" data-testid="crm-voice">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">CRM Voice Management</h1>
          <p className="text-muted-foreground">Calls, texts and requests your assistant handled, and the services it relies on.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setTestType("voice")} data-testid="crm-test-integration">
            Test Integration
          </Button>
          <Button variant="outline" onClick={() => void refresh()} data-testid="crm-refresh">
            <RefreshCw aria-hidden />
            Refresh
          </Button>
        </div>
      </div>

      <Card data-testid="crm-status">
        <CardHeader className="flex flex-row items-center justify-between">
          <CardTitle>System Status</CardTitle>
          <span className="flex items-center gap-2 text-sm">
            Overall <StatusBadge status={h?.status} testId="crm-status-overall" />
          </span>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {serviceRows.map(({ key, label }) => (
            <div key={key} className="flex flex-col gap-1 rounded-md border p-3 text-sm">
              <span className="flex items-center justify-between">
                {label} <StatusBadge status={h?.services[key].status} testId={`crm-status-${key}`} />
              </span>
              <span className="text-xs text-muted-foreground">
                {h?.services[key].latencyMs != null ? `${h.services[key].latencyMs} ms · ` : ""}
                {h?.services[key].detail ?? "Checking…"}
              </span>
            </div>
          ))}
          {h?.problems.length ? (
            <div className="sm:col-span-2 lg:col-span-4">
              <HealthProblems problems={h.problems} testId="crm-status-problems" />
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Tabs defaultValue="dashboard">
        <TabsList>
          <TabsTrigger value="dashboard">Dashboard</TabsTrigger>
          <TabsTrigger value="communications">Communications</TabsTrigger>
          <TabsTrigger value="logistics">Logistics</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
        </TabsList>

        <TabsContent value="dashboard" className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard label="Total Communications" icon={MessageSquare} testId="crm-total" loading={analytics.isLoading} value={a ? String(a.totalCommunications) : "—"} note={a ? `${a.voiceCalls} voice calls, last ${a.windowDays} days` : undefined} />
            <StatCard label="Response Time" icon={Clock} testId="crm-response" loading={analytics.isLoading} value={a?.responseTime.average ?? "—"} note={a ? `Voice ${a.responseTime.voice}` : undefined} />
            <StatCard
              label="Positive Sentiment"
              icon={Smile}
              testId="crm-positive"
              loading={analytics.isLoading}
              value={a ? `${a.positivePercent}%` : "—"}
              note={a ? sentimentText({ analysedCalls: a.analysedCalls, average: a.averageSentiment, positivePercent: a.analysedCalls ? a.positivePercent : null }) : undefined}
            />
            <StatCard label="Logistics Requests" icon={Truck} testId="crm-logistics" loading={analytics.isLoading} value={a ? String(a.logisticsRequests.total) : "—"} note={a ? `${a.logisticsRequests.pending} pending` : undefined} />
          </div>
          <Card>
            <CardHeader>
              <CardTitle>Quick Actions</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              <Button onClick={processVoiceCall} data-testid="crm-process-call">
                <PhoneCall aria-hidden />
                Process Voice Call
              </Button>
              <Button variant="outline" onClick={() => setTestType("text")} data-testid="crm-generate-text">
                Generate Text Response
              </Button>
              <Button variant="outline" onClick={() => setTestType("logistics")} data-testid="crm-coordinate">
                Coordinate Logistics
              </Button>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="communications" className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard label="Voice Calls" icon={PhoneCall} testId="crm-calls" value={a ? String(a.voiceCalls) : "—"} note={a ? `Reply time ${a.responseTime.voice}` : undefined} />
            <StatCard label="Text Messages" icon={MessageSquare} testId="crm-texts" value={a ? String(a.textMessages) : "—"} note={a ? `Reply time ${a.responseTime.text}` : undefined} />
            <StatCard label="Email Communications" icon={MessageSquare} testId="crm-emails" value={a ? String(a.emails) : "—"} note="The product sends and receives no e-mail yet" />
          </div>
          <Card>
            <CardHeader>
              <CardTitle>Sentiment breakdown</CardTitle>
            </CardHeader>
            <CardContent data-testid="crm-sentiment">
              {a && a.sentimentBreakdown.positive + a.sentimentBreakdown.neutral + a.sentimentBreakdown.negative > 0 ? (
                <ResponsiveContainer width="100%" height={200}>
                  <BarChart
                    data={[
                      { label: "Positive", count: a.sentimentBreakdown.positive },
                      { label: "Neutral", count: a.sentimentBreakdown.neutral },
                      { label: "Negative", count: a.sentimentBreakdown.negative },
                    ]}
                  >
                    <XAxis dataKey="label" fontSize={12} />
                    <YAxis allowDecimals={false} fontSize={12} />
                    <Tooltip />
                    <Bar dataKey="count" name="Calls" fill={chartColors[1]} />
                  </BarChart>
                </ResponsiveContainer>
              ) : (
                <p className="py-8 text-center text-sm text-muted-foreground">No analysed calls in the last 30 days</p>
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="logistics" className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard label="Total" icon={Truck} testId="crm-logistics-total" value={a ? String(a.logisticsRequests.total) : "—"} />
            <StatCard label="Pending" icon={Truck} testId="crm-logistics-pending" value={a ? String(a.logisticsRequests.pending) : "—"} />
            <StatCard label="Completed" icon={Truck} testId="crm-logistics-completed" value={a ? String(a.logisticsRequests.completed) : "—"} />
          </div>
          <Card>
            <CardHeader>
              <CardTitle>Requests</CardTitle>
            </CardHeader>
            <CardContent>
              {a?.recentRequests.length ? (
                <ul className="grid gap-2" data-testid="crm-request-list">
                  {a.recentRequests.map((r) => (
                    <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm" data-testid="crm-request">
                      <span className="flex flex-col">
                        <span>
                          <Badge variant="outline" className="mr-2 capitalize">
                            {r.kind}
                          </Badge>
                          {r.description}
                        </span>
                        <span className="text-xs text-muted-foreground">
                          {r.contact ? `${r.contact} · ` : ""}
                          {new Date(r.createdAt).toLocaleString()} · from {r.source === "test" ? "a test" : r.source === "sms" ? "a text" : "a call"}
                        </span>
                      </span>
                      {r.status === "pending" ? (
                        <Button size="sm" onClick={() => complete.mutate({ id: r.id, status: "completed" })} data-testid="crm-request-complete">
                          Mark completed
                        </Button>
                      ) : (
                        <Button size="sm" variant="ghost" onClick={() => complete.mutate({ id: r.id, status: "pending" })}>
                          Completed · reopen
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted-foreground">No requests yet. Orders, deliveries and pickups callers ask for appear here.</p>
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="analytics">
          <Card>
            <CardHeader>
              <CardTitle>Top Automated Actions</CardTitle>
            </CardHeader>
            <CardContent>
              {a?.topActions.length ? (
                <ul className="grid gap-1 text-sm" data-testid="crm-actions">
                  {a.topActions.map((x) => (
                    <li key={x.type} className="flex justify-between">
                      <span>{actionLabel(x.type)}</span>
                      <span className="tabular-nums">{x.count}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted-foreground">The assistant has not acted on anything in the last 30 days.</p>
              )}
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>

      {testType ? <TestDialog key={testType} initialType={testType} onClose={() => setTestType(null)} onDone={() => void refresh()} /> : null}
      {firstNumber ? <PhonePanel number={firstNumber} open={callOpen} onOpenChange={setCallOpen} /> : null}
      <Dialog open={noNumber} onOpenChange={setNoNumber}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Process Voice Call</DialogTitle>
            <DialogDescription>Calls need a phone number. Add one, then place a test call to it from here.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button asChild>
              <Link href="/phone-numbers">Go to Phone Numbers</Link>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

function TestDialog({ initialType, onClose, onDone }: { initialType: CrmTestType; onClose: () => void; onDone: () => void }) {
  const [testType, setTestType] = React.useState<CrmTestType>(initialType);
  const [content, setContent] = React.useState("");
  const [result, setResult] = React.useState<CrmTestResult | null>(null);
  const run = useMutation({
    mutationFn: async () => (await apiRequest("POST", "/api/crm-voice/test", { testType, content })).json() as Promise<CrmTestResult>,
    onSuccess: (r) => {
      setResult(r);
      onDone();
    },
    onError: (error) => toast.error("Test Failed", { description: serverMessage(error) ?? "Please try again." }),
  });
  return (
    <Dialog open onOpenChange={(open) => (!open ? onClose() : undefined)}>
      <DialogContent data-testid="crm-test-dialog">
        <DialogHeader>
          <DialogTitle>Test Integration</DialogTitle>
          <DialogDescription>Runs the real assistant: a spoken reply, a text reply, or a captured logistics request.</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="crm-test-type">Test type</Label>
            <Select id="crm-test-type" value={testType} onChange={(e) => setTestType(e.target.value as CrmTestType)} data-testid="crm-test-type">
              {crmTestTypes.map((t) => (
                <option key={t} value={t}>
                  {t[0].toUpperCase() + t.slice(1)}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="crm-test-content">Content</Label>
            <Textarea id="crm-test-content" value={content} placeholder={DEFAULT_TEST_CONTENT[testType]} onChange={(e) => setContent(e.target.value)} data-testid="crm-test-content" />
          </div>
          {result ? (
            <div className="rounded-md border p-3 text-sm" data-testid="crm-test-result">
              {result.testType === "logistics" ? (
                <p>
                  Captured a {result.result.request.kind} request: {result.result.request.description}
                </p>
              ) : (
                <>
                  <p>{result.result.reply}</p>
                  {result.testType === "voice" ? <audio controls src={result.result.audioUrl} className="mt-2 w-full" /> : null}
                </>
              )}
            </div>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => run.mutate()} disabled={run.isPending} data-testid="crm-test-run">
            {run.isPending ? "Running..." : "Run Test"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
