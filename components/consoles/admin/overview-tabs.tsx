"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { HealthProblems } from "@/components/reports/figures/system-health";
import { StatusBadge, TierBadge } from "./badges";
import { useAdminAnalytics, useAdminOrganizations, useSystemStats } from "./use-admin";

const numberFormat = new Intl.NumberFormat("en-US");

function LoadError({ what }: { what: string }) {
  return (
    <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm">
      We couldn&apos;t load {what}.
    </p>
  );
}

/** Every organization with its plan, balance and counts. */
export function OrganizationsTab() {
  const { data, isLoading, isError } = useAdminOrganizations();
  if (isError) return <LoadError what="the organizations" />;
  if (isLoading) return <Skeleton className="h-40 w-full" />;
  if (!data?.length) return <p className="text-sm text-muted-foreground">No organizations yet.</p>;
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="admin-organizations">
      {data.map((org) => (
        <Card key={org.id} data-testid="admin-organization-card">
          <CardHeader className="gap-2">
            <div className="flex items-start justify-between gap-2">
              <CardTitle className="truncate text-base">{org.name}</CardTitle>
              <TierBadge tier={org.subscriptionTier} />
            </div>
            <CardDescription className="flex items-center gap-2">
              <StatusBadge status={org.subscriptionStatus} />
              since {new Date(org.createdAt).toLocaleDateString("en-US", { dateStyle: "medium" })}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-3 gap-3 text-sm">
              {(
                [
                  ["Members", org.members],
                  ["Numbers", org.phoneNumbers],
                  ["Assistants", org.assistants],
                  ["Calls", org.calls],
                  ["Credits", org.credits],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="flex flex-col">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="font-semibold tabular-nums">{numberFormat.format(value)}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

function Bars({ rows, unit }: { rows: { label: string; value: number }[]; unit: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <ul className="flex flex-col gap-1.5">
      {rows.map((r) => (
        <li key={r.label} className="grid grid-cols-[4.5rem_1fr_4rem] items-center gap-2 text-xs">
          <span className="text-muted-foreground tabular-nums">{r.label}</span>
          <span className="h-3 overflow-hidden rounded bg-muted" aria-hidden>
            <span className="block h-full rounded bg-primary" style={{ width: `${(r.value / max) * 100}%` }} />
          </span>
          <span className="text-right tabular-nums" aria-label={`${r.label}: ${r.value} ${unit}`}>
            {numberFormat.format(r.value)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function dayLabel(day: string) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** Call volume and voice minutes per day over the last 14 days, all organizations. */
export function AnalyticsTab() {
  const { data, isLoading, isError } = useAdminAnalytics();
  if (isError) return <LoadError what="the analytics" />;
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="admin-analytics">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Call Volume</CardTitle>
          <CardDescription>{numberFormat.format(data.totalCalls)} calls in the last 14 days (UTC days)</CardDescription>
        </CardHeader>
        <CardContent>
          <Bars unit="calls" rows={data.days.map((d) => ({ label: dayLabel(d.day), value: d.calls }))} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Voice Minutes</CardTitle>
          <CardDescription>{numberFormat.format(data.totalMinutes)} minutes of calls in the last 14 days</CardDescription>
        </CardHeader>
        <CardContent>
          <Bars unit="minutes" rows={data.days.map((d) => ({ label: dayLabel(d.day), value: d.minutes }))} />
        </CardContent>
      </Card>
    </div>
  );
}

const providerRows: { key: "llm" | "tts" | "stt" | "telephony" | "payments"; label: string; live: string; credential: string }[] = [
  { key: "llm", label: "Language model", live: "anthropic", credential: "anthropic" },
  { key: "tts", label: "Text to speech", live: "elevenlabs", credential: "elevenlabs" },
  { key: "stt", label: "Speech to text", live: "deepgram", credential: "deepgram" },
  { key: "telephony", label: "Telephony", live: "twilio", credential: "twilio" },
  { key: "payments", label: "Payments", live: "stripe", credential: "stripe" },
];

/** The database driver and which providers the environment puts in effect. */
export function SettingsTab() {
  const { data, isLoading, isError } = useSystemStats();
  if (isError) return <LoadError what="the system status" />;
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="admin-settings">
      <Card className="lg:col-span-2" data-testid="admin-system-health">
        <CardHeader>
          <CardTitle className="text-base">System status</CardTitle>
          <CardDescription>
            The same figure as the dashboard, Analytics and the footer: a missing optional part is Degraded and named, never Offline.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <span data-testid="admin-health-headline">{data.systemHealth.headline}</span>
            <span className="text-muted-foreground" data-testid="admin-uptime">
              Uptime {data.systemHealth.uptime.percent === null ? "not measured yet" : `${data.systemHealth.uptime.percent}%`}, last {data.systemHealth.uptime.windowDays} days
            </span>
          </div>
          <HealthProblems problems={data.systemHealth.problems} testId="admin-health-problems" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Database</CardTitle>
          <CardDescription>Where Switchboard keeps its data.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-sm">
          <div className="flex items-center justify-between">
            <span>Driver</span>
            <Badge variant="success" data-testid="admin-database-driver">
              {data.database === "postgres" ? "PostgreSQL" : "PGlite (embedded)"}
            </Badge>
          </div>
          <dl className="grid grid-cols-3 gap-3">
            {Object.entries(data.counts).map(([label, value]) => (
              <div key={label} className="flex flex-col">
                <dt className="text-xs text-muted-foreground capitalize">{label.replace(/([A-Z])/g, " $1")}</dt>
                <dd className="font-semibold tabular-nums">{numberFormat.format(value)}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Providers</CardTitle>
          <CardDescription>What the server environment puts in effect. Organizations with their own keys use those instead.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col gap-3 text-sm">
            {providerRows.map((row) => {
              const value = data.providers[row.key];
              const own = data.organizationKeys[row.credential] ?? 0;
              return (
                <li key={row.key} className="flex items-center justify-between gap-3" data-testid={`admin-provider-${row.key}`}>
                  <span className="flex flex-col">
                    <span>{row.label}</span>
                    {own > 0 ? (
                      <span className="text-xs text-muted-foreground">
                        {own} organization{own === 1 ? "" : "s"} with their own key
                      </span>
                    ) : null}
                  </span>
                  {/* Speech recognition missing is a degraded part (lib/reports/figures), not a failure: see System status. */}
                  <Badge variant={value === row.live ? "success" : "warning"}>{value === "unavailable" ? "not installed" : value}</Badge>
                </li>
              );
            })}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
