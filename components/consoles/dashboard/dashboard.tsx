"use client";

import Link from "next/link";
import { Bot, Plus, RotateCw, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { displayFirstName, useAuth } from "@/lib/identity/auth/use-auth";
import { CreditsCard } from "./credits-card";
import { KnowledgeCard } from "./knowledge-card";
import { SetupChecklistCard, useSetupChecklist } from "./setup-checklist";
import { MasterAdminControls } from "./master-admin-controls";
import { PerformanceOverview } from "./performance-overview";
import { QuickLinks } from "./quick-links";
import { StatCards } from "./stat-cards";
import { useDashboardStats } from "./use-dashboard-stats";
import { VoiceTestCenter } from "./voice-test-center";

/** The signed-in home, shown at / and /dashboard (spec core §2). */
export function Dashboard() {
  const { user } = useAuth();
  const { data: stats, isLoading, isError, refetch, isRefetching } = useDashboardStats();
  const isMasterAdmin = user?.role === "master_admin";
  // A new organization (nothing set up yet) is greeted, not welcomed back. Which one is known only
  // once the setup checklist has loaded (or failed to: then welcomed back), so until then a
  // placeholder of the heading's height stands in and the greeting never switches.
  const checklist = useSetupChecklist();
  const greetingKnown = checklist.data !== undefined || checklist.isError;
  const brandNew = checklist.data !== undefined && checklist.data.completed === 0 && checklist.data.show;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="dashboard">
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-3">
            {greetingKnown ? (
              <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl" data-testid="dashboard-welcome">
                {brandNew ? "Welcome" : "Welcome back"}, {displayFirstName(user)}!
              </h1>
            ) : (
              <Skeleton className="h-8 w-64 max-w-full sm:h-9" data-testid="dashboard-welcome-loading" />
            )}
            {isMasterAdmin ? (
              <Badge data-testid="master-admin-badge">
                <ShieldCheck aria-hidden />
                MASTER ADMIN
              </Badge>
            ) : null}
          </div>
          <p className="text-muted-foreground">Here is what your AI phone desk has been doing.</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" asChild>
            <Link href="/phone-numbers" data-testid="dashboard-add-number">
              <Plus aria-hidden />
              Add Number
            </Link>
          </Button>
          <Button asChild>
            <Link href="/voice-assistants" data-testid="dashboard-create-assistant">
              <Bot aria-hidden />
              Create Assistant
            </Link>
          </Button>
        </div>
      </div>

      {isError ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <span>We couldn&apos;t load your figures.</span>
          <Button size="sm" variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw aria-hidden className={isRefetching ? "animate-spin" : undefined} />
            Try again
          </Button>
        </div>
      ) : null}

      <SetupChecklistCard />

      <StatCards stats={stats} isLoading={isLoading} />

      <CreditsCard />

      <KnowledgeCard />

      <div className="grid gap-6 lg:grid-cols-2">
        <VoiceTestCenter />
        <PerformanceOverview stats={stats} isLoading={isLoading} isError={isError} />
      </div>

      <QuickLinks />

      {isMasterAdmin ? <MasterAdminControls /> : null}
    </div>
  );
}
