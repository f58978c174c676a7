"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { Activity, BarChart3, Bot, Building2, CreditCard, DollarSign, Download, MessageSquare, Network, PhoneCall, Plug, Settings, ShieldCheck, Users } from "lucide-react";
import { toast } from "sonner";
import { UsersTab } from "@/components/consoles/admin/users-tab";
import { ADMIN_SYSTEM_KEY } from "@/components/consoles/admin/use-admin";
import { downloadCsv } from "@/components/reports/analytics/download";
import { StatCard } from "@/components/reports/analytics/stat-card";
import { LinkCard } from "@/components/consoles/dashboard/link-card";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { SystemStats } from "@/lib/consoles/admin/service";
import { actionLabel, compactNumber, growthText, NO_HEALTH_CHECKS, wholeDollars } from "@/lib/reports/analytics/text";
import { serverMessage } from "@/lib/platform/api-client";
import { HealthProblems } from "@/components/reports/figures/system-health";
import { COMPONENT_NAMES, CORE_COMPONENTS } from "@/lib/reports/figures";

/**
 * The tabs other than the first load their code when opened (issue 30 point 5): the chart library
 * and the organizations table are not part of the page's first script.
 */
const tabLoading = () => <p className="py-12 text-center text-sm text-muted-foreground lg:col-span-2">Loading…</p>;
const MasterAdminCharts = dynamic(() => import("./master-admin-charts").then((m) => m.MasterAdminCharts), { ssr: false, loading: tabLoading });
const OrganizationsTab = dynamic(() => import("@/components/consoles/admin/overview-tabs").then((m) => m.OrganizationsTab), { loading: tabLoading });

const planLabels: Record<string, string> = { free: "Free Plan", pro: "Pro Plan", enterprise: "Enterprise" };

/** The platform's other admin screens: each card says where it leads. */
const platformTools = [
  { href: "/admin", icon: ShieldCheck, title: "Admin Dashboard", description: "Users, organizations, credits and the providers' status.", testId: "master-tool-admin" },
  { href: "/analytics", icon: BarChart3, title: "Analytics", description: "Calls, messages and response times over time, for one organization or the whole platform.", testId: "master-tool-analytics" },
  { href: "/mcp", icon: Plug, title: "MCP Management", description: "The tool servers assistants can call, their health and the calls made.", testId: "master-tool-mcp" },
  { href: "/a2a", icon: Network, title: "A2A Management", description: "The other agents Switchboard talks to, and the messages exchanged.", testId: "master-tool-a2a" },
  { href: "/crm-voice", icon: Bot, title: "CRM Voice", description: "Voice commands against the CRM, and the services behind them.", testId: "master-tool-crm-voice" },
] as const;

/** /master-admin: the platform's figures, all computed by GET /api/admin/system-stats. */
export function MasterAdminScreen() {
  const { data, isLoading } = useQuery<SystemStats>({ queryKey: ADMIN_SYSTEM_KEY, refetchInterval: 60_000 });
  const [settingsOpen, setSettingsOpen] = React.useState(false);
  const [exporting, setExporting] = React.useState(false);
  const growthNote = (g: { growth: number | null } | undefined) => (g ? `${growthText(g.growth).replace("last period", "previous 30 days")}` : undefined);

  const exportReport = async () => {
    setExporting(true);
    try {
      await downloadCsv("/api/admin/report");
    } catch (error) {
      toast.error("Export Failed", { description: serverMessage(error) ?? "Please try again." });
    } finally {
      setExporting(false);
    }
  };

  const creditData = (data?.creditUsage ?? []).filter((c) => c.credits > 0).map((c) => ({ name: actionLabel(c.category), credits: c.credits, percent: c.percent }));
  const planData = (data?.subscriptions ?? []).filter((s) => s.organizations > 0).map((s) => ({ name: planLabels[s.plan], value: s.organizations, percent: s.percent }));
  const uptime = data?.uptime;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="master-admin">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Master Admin Dashboard</h1>
          <p className="text-muted-foreground">System-wide management and analytics</p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            onClick={() => void exportReport()}
            disabled={exporting}
            title="Downloads the platform figures as a CSV file"
            data-testid="master-export"
          >
            <Download aria-hidden />
            Export Report
          </Button>
          <Button variant="outline" onClick={() => setSettingsOpen(true)} title="Shows the configuration in effect on this server" data-testid="master-settings">
            <Settings aria-hidden />
            System Settings
          </Button>
        </div>
      </div>

      <section aria-label="Platform figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" icon={Users} testId="master-users" loading={isLoading} value={data ? compactNumber(data.totalUsers) : "—"} note={growthNote(data?.growth.users)} />
        <StatCard label="Total Revenue" icon={DollarSign} testId="master-revenue" loading={isLoading} value={data ? wholeDollars(data.totalRevenue) : "—"} note={growthNote(data?.growth.revenue)} />
        <StatCard label="Voice Calls" icon={PhoneCall} testId="master-calls" loading={isLoading} value={data ? compactNumber(data.totalCalls) : "—"} note={growthNote(data?.growth.calls)} />
        <StatCard label="Messages Sent" icon={MessageSquare} testId="master-messages" loading={isLoading} value={data ? compactNumber(data.totalMessages) : "—"} note={growthNote(data?.growth.messages)} />
      </section>

      <section aria-labelledby="master-tools-heading" className="flex flex-col gap-3" data-testid="master-tools">
        <h2 id="master-tools-heading" className="text-lg font-semibold">
          Platform tools
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
          {platformTools.map((tool) => (
            <LinkCard key={tool.href} {...tool} />
          ))}
        </div>
      </section>

      <Tabs defaultValue="users">
        <TabsList>
          <TabsTrigger value="users">User Management</TabsTrigger>
          <TabsTrigger value="organizations">Organizations</TabsTrigger>
          <TabsTrigger value="analytics">Analytics Engine</TabsTrigger>
          <TabsTrigger value="billing">Billing Overview</TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        <TabsContent value="organizations" className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard label="Total Organizations" icon={Building2} testId="master-orgs" value={data ? compactNumber(data.totalOrganizations) : "—"} />
            <StatCard label="Active Subscriptions" icon={CreditCard} testId="master-subscriptions" value={data ? compactNumber(data.activeSubscriptions) : "—"} note="Pro or Enterprise, paid and active" />
            <StatCard
              label="Platform Uptime"
              icon={Activity}
              testId="master-uptime"
              value={uptime?.percent != null ? `${uptime.percent}%` : "—"}
              note={uptime ? (uptime.runs ? `${uptime.upRuns} of ${uptime.runs} health checks passed, last ${uptime.windowDays} days` : NO_HEALTH_CHECKS) : undefined}
            />
          </div>
          <OrganizationsTab />
        </TabsContent>
        <TabsContent value="analytics" className="grid gap-4 lg:grid-cols-2">
          <p className="text-sm text-muted-foreground lg:col-span-2">
            Trends over time, per organization or for the whole platform, are on the{" "}
            <Link href="/analytics" className="font-medium text-primary underline underline-offset-4" data-testid="master-analytics-link">
              Analytics dashboard
            </Link>
            .
          </p>
          <MasterAdminCharts creditData={creditData} planData={planData} creditUsage={data?.creditUsage ?? []} />
        </TabsContent>
        <TabsContent value="billing" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatCard label="Total Revenue" icon={DollarSign} testId="master-billing-revenue" value={data ? wholeDollars(data.totalRevenue) : "—"} note="Every paid payment" />
          <StatCard label="Credits Used" icon={Activity} testId="master-credits-used" value={data ? compactNumber(data.totalCreditsUsed) : "—"} />
          <StatCard label="Credits Remaining" icon={CreditCard} testId="master-credits-remaining" value={data ? compactNumber(data.totalCreditsRemaining) : "—"} note="Sum of all balances" />
          <StatCard label="Monthly Recurring" icon={DollarSign} testId="master-mrr" value={data ? wholeDollars(data.monthlyRecurringRevenue) : "—"} note="Active paid plans at their monthly price" />
        </TabsContent>
      </Tabs>

      <Dialog open={settingsOpen} onOpenChange={setSettingsOpen}>
        <DialogContent data-testid="master-settings-dialog">
          <DialogHeader>
            <DialogTitle>System Settings</DialogTitle>
            <DialogDescription>The configuration in effect on this server (read-only).</DialogDescription>
          </DialogHeader>
          <p className="text-sm text-muted-foreground" data-testid="master-settings-where">
            It is set in the server&apos;s environment. An organization&apos;s own provider keys are in{" "}
            <Link href="/settings" className="font-medium text-primary underline underline-offset-4">
              Settings → API Keys
            </Link>
            ; the providers&apos; live status is in the{" "}
            <Link href="/admin" className="font-medium text-primary underline underline-offset-4">
              Admin Dashboard
            </Link>
            .
          </p>
          {data ? (
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Database</dt>
              <dd>{data.database === "pglite" ? "Embedded PGlite" : "PostgreSQL"}</dd>
              <dt className="text-muted-foreground">Job runner</dt>
              <dd>
                {data.configuration.jobRunner.queue === "pg-boss" ? "pg-boss" : "Local queue"}, {data.configuration.jobRunner.inProcess ? "in the app process" : "separate worker"}
              </dd>
              <dt className="text-muted-foreground">Demo data</dt>
              <dd>{data.configuration.demoSeed ? "Seeded" : "Not seeded"}</dd>
              <dt className="text-muted-foreground">Language model</dt>
              <dd>{data.providers.llm}</dd>
              <dt className="text-muted-foreground">Speech synthesis</dt>
              <dd>{data.providers.tts}</dd>
              <dt className="text-muted-foreground">Speech recognition</dt>
              <dd>{data.providers.stt}</dd>
              <dt className="text-muted-foreground">Telephony</dt>
              <dd>{data.providers.telephony}</dd>
              <dt className="text-muted-foreground">Payments</dt>
              <dd>{data.providers.payments}</dd>
              {data.configuration.health.map((h) => (
                <React.Fragment key={h.component}>
                  <dt className="text-muted-foreground">Probe: {COMPONENT_NAMES[h.component] ?? h.component}</dt>
                  <dd>
                    {h.status === "offline" && !(CORE_COMPONENTS as readonly string[]).includes(h.component) ? "degraded" : h.status}
                    {h.latencyMs !== null ? ` (${h.latencyMs} ms)` : ""}
                  </dd>
                </React.Fragment>
              ))}
              <dt className="text-muted-foreground">System status</dt>
              <dd data-testid="master-health-headline">{data.systemHealth.headline}</dd>
            </dl>
          ) : null}
          {data ? <HealthProblems problems={data.systemHealth.problems} testId="master-health-problems" /> : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}
