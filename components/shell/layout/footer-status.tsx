"use client";

import Link from "next/link";
import { useSystemHealth } from "@/components/reports/figures/system-health";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { cn } from "@/lib/platform/utils";

/** The spec's words when every part answers (core §2 footer). */
export const ALL_OPERATIONAL = "All systems operational";

const dot = { operational: "bg-success shadow-success/60", degraded: "bg-warning shadow-warning/60", offline: "bg-destructive shadow-destructive/60", unknown: "bg-muted-foreground shadow-transparent" } as const;

/**
 * The footer's status line, from the same health figure as the dashboard, Analytics and the admin
 * screens (lib/reports/figures): the spec's "All systems operational" only when it is true. A signed-in
 * reader sees the part that is wanting ("Degraded: voicemail transcription not installed") with a
 * link to the dashboard's System status, where how to install it is said.
 */
export function FooterStatus() {
  const { isAuthenticated } = useAuth();
  const { data } = useSystemHealth();
  const status = data?.status ?? "unknown";
  const text = !data
    ? "Checking system status…"
    : status === "operational"
      ? ALL_OPERATIONAL
      : data.headline
        ? data.headline
        : status === "degraded"
          ? "Some features degraded"
          : status === "offline"
            ? "Service disruption"
            : "System status not checked yet";
  const label = (
    <>
      <span aria-hidden className={cn("size-2 shrink-0 rounded-full shadow-[0_0_8px]", dot[status])} />
      {text}
    </>
  );
  if (isAuthenticated && data && status !== "operational") {
    return (
      <Link href="/dashboard#system-status" className="flex items-center gap-2 underline-offset-4 hover:text-foreground hover:underline" data-testid="system-status" data-status={status}>
        {label}
      </Link>
    );
  }
  return (
    <span className="flex items-center gap-2" data-testid="system-status" data-status={data ? status : "loading"}>
      {label}
    </span>
  );
}
