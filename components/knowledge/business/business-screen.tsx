"use client";

import * as React from "react";
import Link from "next/link";
import { ArrowLeft, Download, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ImportDialog } from "./import-dialog";
import { KnowledgeGapsCard } from "./knowledge-gaps-card";
import { ProfileForm } from "./profile-form";
import { ServicesCard } from "./services-card";
import { useBusinessProfile } from "./use-business";

/**
 * /settings/business: what the assistant answers from, and the edge of it — the business profile
 * (basics, hours per day, holidays, policies, FAQs), services with durations and prices, the
 * questions it could not answer, and import from a website or documents.
 */
export function BusinessScreen({ importUrl }: { importUrl?: string }) {
  const { data: profile, isLoading, isError, refetch, isRefetching } = useBusinessProfile();
  const [importing, setImporting] = React.useState(importUrl !== undefined);

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="business">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <Link href="/settings" className="flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
            <ArrowLeft className="size-4" aria-hidden />
            Settings
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Business</h1>
          <p className="text-muted-foreground">What your assistant tells callers. It answers only from these details, and says so when it doesn&apos;t know.</p>
        </div>
        <Button onClick={() => setImporting(true)} disabled={!profile} data-testid="business-import">
          <Download aria-hidden />
          Import from website or file
        </Button>
      </div>

      {isError ? (
        <div role="alert" className="flex flex-col gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <span>We couldn&apos;t load your business profile.</span>
          <Button size="sm" variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw aria-hidden className={isRefetching ? "animate-spin" : undefined} />
            Try again
          </Button>
        </div>
      ) : null}

      <KnowledgeGapsCard />

      {isLoading ? (
        <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label="Loading your business profile">
          {[0, 1, 2].map((i) => (
            <Card key={i}>
              <CardHeader className="gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-4 w-64" />
              </CardHeader>
              <CardContent className="flex flex-col gap-3">
                <Skeleton className="h-9 w-full" />
                <Skeleton className="h-9 w-2/3" />
              </CardContent>
            </Card>
          ))}
        </div>
      ) : profile ? (
        <>
          <ServicesCard services={profile.services} currency={profile.currency} />
          {profile.legacy.services.length && profile.services.length === 0 ? (
            <p className="-mt-4 text-sm text-muted-foreground">Earlier you listed: {profile.legacy.services.join(", ")}. Add them above with their prices and durations.</p>
          ) : null}
          <ProfileForm profile={profile} />
          <ImportDialog open={importing} onOpenChange={setImporting} profile={profile} initialUrl={importUrl || undefined} />
        </>
      ) : null}
    </div>
  );
}
