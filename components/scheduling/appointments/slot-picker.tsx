"use client";

import * as React from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { addDays, fromZoned } from "@/lib/scheduling/time";
import { cn } from "@/lib/platform/utils";
import { useSlots } from "./api";

/** A day in the business's zone, then its free times (real slots from the availability route). */
export function SlotPicker({
  serviceId,
  timezone,
  date,
  onDateChange,
  value,
  onChange,
  exclude,
  movingAppointmentId,
}: {
  serviceId: string | null;
  timezone: string;
  date: string;
  onDateChange: (date: string) => void;
  value: string | null;
  onChange: (start: string | null) => void;
  /** The appointment being moved: its own time is not offered as "new". */
  exclude?: string;
  /** The appointment being moved: times overlapping its own are free for it. */
  movingAppointmentId?: string;
}) {
  const from = date ? fromZoned(date, "00:00", timezone) : null;
  const to = date ? fromZoned(addDays(date, 1), "00:00", timezone) : null;
  const { data, isLoading, isError } = useSlots(serviceId, from, to, movingAppointmentId);
  const slots = (data?.slots ?? []).filter((s) => s.start !== exclude);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="slot-date">Day</Label>
        <Input
          id="slot-date"
          type="date"
          value={date}
          onChange={(e) => {
            onDateChange(e.target.value);
            onChange(null);
          }}
          data-testid="slot-date"
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium">Free times ({timezone})</span>
        {!serviceId ? (
          <p className="text-sm text-muted-foreground">Choose a service first.</p>
        ) : isLoading ? (
          <Spinner />
        ) : isError ? (
          <p className="text-sm text-destructive">Could not load the free times.</p>
        ) : slots.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="slots-empty">
            No free times that day.
          </p>
        ) : (
          <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Free times" data-testid="slots">
            {slots.map((s) => (
              <button
                key={s.start}
                type="button"
                role="radio"
                aria-checked={value === s.start}
                onClick={() => onChange(s.start)}
                className={cn(
                  "rounded-md border px-3 py-1.5 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  value === s.start ? "border-primary bg-primary text-primary-foreground" : "border-border hover:bg-accent",
                )}
                data-testid={`slot-${s.localTime}`}
              >
                {s.label.time}
              </button>
            ))}
          </div>
        )}
        {data && data.calendar === "unavailable" ? (
          <p className="text-xs text-warning">Google Calendar did not answer: its busy times are not shown.</p>
        ) : null}
      </div>
    </div>
  );
}
