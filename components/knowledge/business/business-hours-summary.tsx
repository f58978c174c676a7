"use client";

import Link from "next/link";
import { summarizeWeek } from "@/lib/knowledge/business-profile/hours";
import { useBusinessProfile } from "./use-business";

/**
 * Business hours have one home: the Business page (issue 30). The number's Configure and the
 * assistant's settings show them from there and link to it instead of keeping hours of their own.
 */
export function BusinessHoursSummary({ ownHoursNote }: { ownHoursNote?: string | null }) {
  const { data: profile, isLoading } = useBusinessProfile();
  const hasHours = profile ? Object.values(profile.weeklyHours).some((ranges) => ranges.length > 0) : false;
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="business-hours-summary">
      {isLoading ? (
        <p className="text-muted-foreground">Reading the business hours…</p>
      ) : hasHours && profile ? (
        <p>
          {summarizeWeek(profile.weeklyHours)}
          {profile.timezone ? <span className="text-muted-foreground"> ({profile.timezone.replace(/_/g, " ")} time)</span> : null}
          {profile.status ? <span className="text-muted-foreground"> · now {profile.status.label}</span> : null}
        </p>
      ) : (
        <p className="text-muted-foreground">
          {ownHoursNote ?? "No business hours yet: calls are answered as if you were always open."}
        </p>
      )}
      <p>
        <Link href="/settings/business" className="font-medium text-primary underline underline-offset-2" data-testid="business-hours-edit">
          {hasHours ? "Change the hours on the Business page" : "Set your hours on the Business page"}
        </Link>
      </p>
    </div>
  );
}
