"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { fieldErrorsOf } from "@/components/platform/server-errors";
import { api, useApiMutation, useServices, type AppointmentView } from "./api";
import { SlotPicker } from "./slot-picker";

/** Who made the booking, in words (the stored source is a code: manual, phone, sms…). */
const BOOKED_BY = {
  manual: "You or your team, in Switchboard",
  api: "Another app, through the API",
  phone: "The assistant, on a phone call",
  sms: "The assistant, by text",
  chat: "The assistant, in the chat",
  mcp: "An AI tool connected to Switchboard",
  a2a: "Another AI agent",
} as const;

type NewProps = { open: boolean; onOpenChange: (open: boolean) => void; timezone: string; initialDate: string };

/** New appointment: service → day → one of the real free times → customer. Each opening starts afresh. */
export function NewAppointmentDialog(props: NewProps) {
  const [session, setSession] = React.useState(0);
  return (
    <NewAppointmentForm
      key={`${session}:${props.initialDate}`}
      {...props}
      onOpenChange={(open) => {
        if (!open) setSession((n) => n + 1);
        props.onOpenChange(open);
      }}
    />
  );
}

function NewAppointmentForm({ open, onOpenChange, timezone, initialDate }: NewProps) {
  const { data: services } = useServices();
  const bookable = (services ?? []).filter((s) => s.isActive && s.bookable);
  const [chosenService, setServiceId] = React.useState<string>("");
  const serviceId = chosenService || bookable[0]?.id || "";
  const [date, setDate] = React.useState(initialDate);
  const [start, setStart] = React.useState<string | null>(null);
  const [name, setName] = React.useState("");
  const [phone, setPhone] = React.useState("");
  const [notes, setNotes] = React.useState("");
  const create = useApiMutation<unknown, AppointmentView>(api.createAppointment, {
    invalidate: "appointments",
    failure: "Could not book the appointment",
    success: (a) => `Booked: ${a.readBack}`,
  });
  const errors = fieldErrorsOf(create.error);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!start) return;
    create.mutate(
      { serviceId, start, customerName: name, customerPhone: phone, notes },
      {
        onSuccess: () => {
          setName("");
          setPhone("");
          setNotes("");
          onOpenChange(false);
        },
        onError: () => setStart(null),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg" data-testid="new-appointment-dialog">
        <DialogHeader>
          <DialogTitle>New appointment</DialogTitle>
          <DialogDescription>Only times that are free right now are offered.</DialogDescription>
        </DialogHeader>
        {bookable.length === 0 ? (
          <p className="text-sm text-muted-foreground">Add a bookable service first (Services tab).</p>
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="appt-service">Service</Label>
              <Select id="appt-service" value={serviceId} onChange={(e) => { setServiceId(e.target.value); setStart(null); }} data-testid="appt-service">
                {bookable.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.durationMinutes} min)
                  </option>
                ))}
              </Select>
            </div>
            <SlotPicker serviceId={serviceId || null} timezone={timezone} date={date} onDateChange={setDate} value={start} onChange={setStart} />
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="appt-name">Customer name</Label>
                <Input id="appt-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={errors.customerName ? true : undefined} data-testid="appt-name" />
                <FieldError id="appt-name-error" message={errors.customerName} />
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="appt-phone">Phone</Label>
                <Input id="appt-phone" type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} placeholder="+14155550123" aria-invalid={errors.customerPhone ? true : undefined} data-testid="appt-phone" />
                <FieldError id="appt-phone-error" message={errors.customerPhone} />
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="appt-notes">Notes</Label>
              <Textarea id="appt-notes" value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} />
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={!start || !name.trim() || !phone.trim() || create.isPending} data-testid="appt-submit">
                {create.isPending ? <Spinner /> : null}
                {create.isPending ? "Booking..." : "Book"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** An appointment's details, with Move (to a free time) and Cancel. Render it keyed by the appointment's id. */
export function AppointmentDialog({ appointment, onOpenChange, timezone }: { appointment: AppointmentView | null; onOpenChange: (open: boolean) => void; timezone: string }) {
  const [moving, setMoving] = React.useState(false);
  const [confirmCancel, setConfirmCancel] = React.useState(false);
  const [date, setDate] = React.useState(appointment?.localDate ?? "");
  const [start, setStart] = React.useState<string | null>(null);
  const move = useApiMutation<{ id: string; start: string }, AppointmentView>(api.moveAppointment, {
    invalidate: "appointments",
    failure: "Could not move the appointment",
    success: (a) => `Moved: ${a.readBack}`,
  });
  const cancel = useApiMutation<string, AppointmentView>(api.cancelAppointment, {
    invalidate: "appointments",
    failure: "Could not cancel the appointment",
    success: (a) => `Cancelled: ${a.serviceName} for ${a.customerName}`,
  });

  if (!appointment) return null;
  const a = appointment;
  return (
    <>
      <Dialog open={Boolean(appointment)} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg" data-testid="appointment-dialog">
          <DialogHeader>
            <DialogTitle>
              {a.serviceName} — {a.customerName}
            </DialogTitle>
            <DialogDescription>
              {a.label.day}, {a.label.date} at {a.label.time} {a.label.zone}
              {a.resourceName ? ` with ${a.resourceName}` : ""}
            </DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Phone</dt>
            <dd>{a.customerPhone}</dd>
            <dt className="text-muted-foreground">Status</dt>
            <dd>{a.status === "held" ? "Being booked (held)" : a.customerConfirmedAt ? "Booked, confirmed by the customer" : "Booked"}</dd>
            <dt className="text-muted-foreground">Booked by</dt>
            <dd>{BOOKED_BY[a.source as keyof typeof BOOKED_BY] ?? a.source}</dd>
            {a.notes ? (
              <>
                <dt className="text-muted-foreground">Notes</dt>
                <dd className="whitespace-pre-wrap">{a.notes}</dd>
              </>
            ) : null}
          </dl>
          {moving ? (
            <SlotPicker serviceId={a.serviceId} timezone={timezone} date={date} onDateChange={setDate} value={start} onChange={setStart} exclude={a.start} movingAppointmentId={a.id} />
          ) : null}
          <DialogFooter>
            {a.status === "confirmed" && !moving ? (
              <>
                <Button variant="destructive" onClick={() => setConfirmCancel(true)} data-testid="appointment-cancel">
                  Cancel appointment
                </Button>
                {a.serviceId ? (
                  <Button variant="outline" onClick={() => setMoving(true)} data-testid="appointment-move">
                    Move
                  </Button>
                ) : null}
              </>
            ) : null}
            {moving ? (
              <>
                <Button variant="outline" onClick={() => setMoving(false)}>
                  Back
                </Button>
                <Button
                  disabled={!start || move.isPending}
                  onClick={() => start && move.mutate({ id: a.id, start }, { onSuccess: () => onOpenChange(false) })}
                  data-testid="appointment-move-submit"
                >
                  {move.isPending ? <Spinner /> : null}
                  Move here
                </Button>
              </>
            ) : null}
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel this appointment?"
        description={`${a.readBack}. The customer gets a text saying it is cancelled, and the time becomes free.`}
        confirmLabel="Cancel appointment"
        cancelLabel="Keep it"
        destructive
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate(a.id, { onSuccess: () => { setConfirmCancel(false); onOpenChange(false); } })}
      />
    </>
  );
}
