"use client";

import * as React from "react";
import { Check, Copy, RefreshCw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { fieldErrorsOf } from "@/components/platform/server-errors";
import { api, useApiMutation, useBookingSettings, type BookingSettingsDto } from "./api";

const numberFields = [
  ["slotIntervalMinutes", "Slots every (minutes)"],
  ["holdMinutes", "Hold a chosen time for (minutes)"],
  ["minNoticeMinutes", "Minimum notice (minutes)"],
  ["maxAdvanceDays", "Book up to (days ahead)"],
  ["reminderMinutesBefore", "Reminder text (minutes before)"],
] as const;

/** Booking rules and the private calendar feed (shown on the Appointments screen and in Settings → Calendar). */
export function BookingSettingsPanel() {
  const { data, isLoading } = useBookingSettings();
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  return <BookingSettingsForm key={data.updatedAt} data={data} />;
}

function BookingSettingsForm({ data }: { data: BookingSettingsDto }) {
  const [values, setValues] = React.useState<Record<string, string>>(() => Object.fromEntries(numberFields.map(([k]) => [k, String(data[k])])));
  const [flags, setFlags] = React.useState({ confirmationSms: data.confirmationSms, reminderSms: data.reminderSms });
  const [copied, setCopied] = React.useState(false);
  const [confirmRegenerate, setConfirmRegenerate] = React.useState(false);
  const save = useApiMutation<unknown, BookingSettingsDto>(api.updateSettings, { invalidate: "settings", failure: "Could not save the booking settings", success: () => "Booking settings saved" });
  const regenerate = useApiMutation<void, BookingSettingsDto>(() => api.regenerateFeed(), { invalidate: "settings", failure: "Could not make a new feed URL", success: () => "New calendar feed URL: update your subscriptions" });
  const errors = fieldErrorsOf(save.error);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(data.icsUrl);
      setCopied(true);
      toast.success("Feed URL copied");
    } catch {
      toast.error("Could not copy", { description: "Select the URL and copy it by hand." });
    }
  };

  return (
    <div className="flex flex-col gap-6" data-testid="booking-settings">
      <Card>
        <CardHeader>
          <CardTitle>Calendar feed</CardTitle>
          <CardDescription>
            Subscribe to this private URL in Google Calendar, Apple Calendar or Outlook to see your appointments there. Anyone with the URL can read
            them: make a new one if it leaks.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 sm:flex-row">
          <Input readOnly value={data.icsUrl} aria-label="Calendar feed URL" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} data-testid="ics-url" />
          <Button variant="outline" onClick={() => void copy()}>
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            {copied ? "Copied" : "Copy"}
          </Button>
          <Button variant="outline" onClick={() => setConfirmRegenerate(true)} data-testid="ics-regenerate">
            <RefreshCw aria-hidden />
            New URL
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Booking rules</CardTitle>
          <CardDescription>
            Time zone: {data.timezone}
            {data.timezoneSet ? "" : " (set your time zone and opening hours in your business profile)"}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="flex flex-col gap-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({ ...Object.fromEntries(numberFields.map(([k]) => [k, Number(values[k])])), ...flags });
            }}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              {numberFields.map(([key, label]) => (
                <div key={key} className="flex flex-col gap-1.5">
                  <Label htmlFor={`booking-${key}`}>{label}</Label>
                  <Input id={`booking-${key}`} type="number" value={values[key] ?? ""} onChange={(e) => setValues({ ...values, [key]: e.target.value })} data-testid={`booking-${key}`} />
                  <FieldError id={`booking-${key}-error`} message={errors[key]} />
                </div>
              ))}
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={flags.confirmationSms} onChange={(e) => setFlags({ ...flags, confirmationSms: e.target.checked })} />
              Text the customer when an appointment is booked, moved or cancelled
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={flags.reminderSms} onChange={(e) => setFlags({ ...flags, reminderSms: e.target.checked })} />
              Send a reminder text
            </label>
            <div>
              <Button type="submit" disabled={save.isPending} data-testid="booking-save">
                Save
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirmRegenerate}
        onOpenChange={setConfirmRegenerate}
        title="Make a new feed URL?"
        description="Calendars subscribed to the current URL stop updating until you subscribe them to the new one."
        confirmLabel="Make a new URL"
        onConfirm={() => regenerate.mutate(undefined, { onSuccess: () => setConfirmRegenerate(false) })}
      />
    </div>
  );
}
