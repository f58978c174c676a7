"use client";

import * as React from "react";
import { ChevronLeft, ChevronRight, Plus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { addDays, fromZoned, toZoned, weekdayOf, WEEKDAYS } from "@/lib/scheduling/time";
import { cn } from "@/lib/platform/utils";
import { useAppointments, type AppointmentView } from "./api";
import { AppointmentDialog, NewAppointmentDialog } from "./appointment-dialogs";

type View = "day" | "week";

function mondayOf(date: string): string {
  return addDays(date, -WEEKDAYS.indexOf(weekdayOf(date)));
}

function dayHeading(date: string, timezone: string) {
  const instant = fromZoned(date, "12:00", timezone);
  return new Intl.DateTimeFormat("en-US", { timeZone: timezone, weekday: "short", month: "short", day: "numeric" }).format(instant);
}

/** The appointment book by day or week, in the business's time zone. */
export function CalendarTab({ timezone }: { timezone: string }) {
  const today = toZoned(new Date(), timezone).date;
  const [view, setView] = React.useState<View>("week");
  const [anchor, setAnchor] = React.useState(today);
  const [creating, setCreating] = React.useState(false);
  const [selected, setSelected] = React.useState<AppointmentView | null>(null);

  const first = view === "week" ? mondayOf(anchor) : anchor;
  const days = Array.from({ length: view === "week" ? 7 : 1 }, (_, i) => addDays(first, i));
  const from = fromZoned(first, "00:00", timezone);
  const to = fromZoned(addDays(first, days.length), "00:00", timezone);
  const { data, isLoading, isError } = useAppointments(from, to);
  const byDay = new Map<string, AppointmentView[]>();
  for (const a of data ?? []) byDay.set(a.localDate, [...(byDay.get(a.localDate) ?? []), a]);

  const step = view === "week" ? 7 : 1;
  const title =
    view === "week"
      ? `${dayHeading(first, timezone)} – ${dayHeading(addDays(first, 6), timezone)}`
      : new Intl.DateTimeFormat("en-US", { timeZone: timezone, weekday: "long", month: "long", day: "numeric", year: "numeric" }).format(fromZoned(anchor, "12:00", timezone));

  return (
    <div className="flex flex-col gap-4" data-testid="appointments-calendar" data-view={view}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-2">
          <Button variant="outline" size="icon" aria-label={view === "week" ? "Previous week" : "Previous day"} onClick={() => setAnchor(addDays(anchor, -step))} data-testid="calendar-prev">
            <ChevronLeft aria-hidden />
          </Button>
          <Button variant="outline" size="sm" onClick={() => setAnchor(today)}>
            Today
          </Button>
          <Button variant="outline" size="icon" aria-label={view === "week" ? "Next week" : "Next day"} onClick={() => setAnchor(addDays(anchor, step))} data-testid="calendar-next">
            <ChevronRight aria-hidden />
          </Button>
          <h2 className="ml-2 text-lg font-semibold" data-testid="calendar-title">
            {title}
          </h2>
        </div>
        <div className="flex items-center gap-2">
          <div className="flex rounded-md border border-border p-0.5" role="group" aria-label="View">
            {(["day", "week"] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                className={cn("rounded px-3 py-1 text-sm capitalize", view === v ? "bg-accent text-foreground" : "text-muted-foreground hover:text-foreground")}
                data-testid={`calendar-view-${v}`}
              >
                {v}
              </button>
            ))}
          </div>
          <Button onClick={() => setCreating(true)} data-testid="appointments-new">
            <Plus aria-hidden />
            New appointment
          </Button>
        </div>
      </div>
      <p className="text-xs text-muted-foreground">Times in {timezone}.</p>

      {isError ? (
        <p role="alert" className="text-sm text-destructive">
          We couldn&apos;t load the appointments.
        </p>
      ) : null}

      <div className={cn("grid gap-3", view === "week" ? "grid-cols-1 md:grid-cols-7" : "grid-cols-1")}>
        {days.map((d) => {
          const items = byDay.get(d) ?? [];
          return (
            <section key={d} className={cn("flex min-h-32 flex-col gap-2 rounded-lg border border-border p-2", d === today && "border-primary/50")} data-testid={`calendar-day-${d}`}>
              <h3 className={cn("text-xs font-semibold uppercase tracking-wide text-muted-foreground", d === today && "text-primary")}>{dayHeading(d, timezone)}</h3>
              {isLoading ? (
                <Skeleton className="h-10 w-full" />
              ) : items.length === 0 ? (
                <p className="text-xs text-muted-foreground">—</p>
              ) : (
                items.map((a) => (
                  <button
                    key={a.id}
                    type="button"
                    onClick={() => setSelected(a)}
                    className={cn(
                      "flex flex-col items-start gap-0.5 rounded-md border px-2 py-1.5 text-left text-xs transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                      a.status === "held" ? "border-dashed border-warning/60" : "border-primary/40 bg-primary/5",
                    )}
                    data-testid="calendar-appointment"
                    data-appointment-id={a.id}
                  >
                    <span className="font-semibold">
                      {a.label.time} · {a.serviceName}
                    </span>
                    <span className="text-muted-foreground">
                      {a.customerName}
                      {a.resourceName ? ` · ${a.resourceName}` : ""}
                    </span>
                    {a.status === "held" ? <Badge variant="warning">being booked</Badge> : null}
                  </button>
                ))
              )}
            </section>
          );
        })}
      </div>

      <NewAppointmentDialog open={creating} onOpenChange={setCreating} timezone={timezone} initialDate={anchor < today ? today : anchor} />
      <AppointmentDialog key={selected?.id ?? "none"} appointment={selected} onOpenChange={(open) => !open && setSelected(null)} timezone={timezone} />
    </div>
  );
}
