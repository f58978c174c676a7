"use client";

import * as React from "react";
import { Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { fieldErrorsOf } from "@/components/platform/server-errors";
import { api, useApiMutation, useResources, useServices, type ServiceDto } from "./api";

function price(s: ServiceDto) {
  if (s.priceText) return s.priceText;
  if (s.priceCents === null) return null;
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(s.priceCents / 100);
}

/** Services with duration, buffers, price and who can deliver them. */
export function ServicesTab() {
  const { data: services, isLoading } = useServices();
  const { data: resources } = useResources();
  const [editing, setEditing] = React.useState<ServiceDto | "new" | null>(null);
  const [deleting, setDeleting] = React.useState<ServiceDto | null>(null);
  const remove = useApiMutation<string, unknown>(api.deleteService, { invalidate: "services", failure: "Could not delete the service", success: () => "Service deleted" });
  const names = new Map((resources ?? []).map((r) => [r.id, r.name]));

  return (
    <div className="flex flex-col gap-4" data-testid="services-tab">
      <div className="flex justify-end">
        <Button onClick={() => setEditing("new")} data-testid="service-add">
          <Plus aria-hidden />
          Add service
        </Button>
      </div>
      {isLoading ? null : (services ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground">No services yet. Add what customers can book, with how long it takes.</p>
      ) : (
        <div className="grid gap-3 md:grid-cols-2">
          {(services ?? []).map((s) => (
            <Card key={s.id} data-testid="service-card">
              <CardContent className="flex items-start justify-between gap-3 p-4">
                <button type="button" className="flex flex-col items-start gap-1 text-left" onClick={() => setEditing(s)}>
                  <span className="font-semibold">{s.name}</span>
                  <span className="text-sm text-muted-foreground">
                    {s.durationMinutes} min{s.bufferBeforeMinutes || s.bufferAfterMinutes ? ` (+${s.bufferBeforeMinutes}/${s.bufferAfterMinutes} min buffers)` : ""}
                    {price(s) ? ` · ${price(s)}` : ""}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {s.resourceIds.length ? `With ${s.resourceIds.map((id) => names.get(id) ?? "…").join(", ")}` : "Business calendar (one at a time)"}
                  </span>
                  {!s.isActive || !s.bookable ? <Badge variant="outline">not bookable</Badge> : null}
                </button>
                <Button variant="ghost" size="icon" aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)}>
                  <Trash2 aria-hidden />
                </Button>
              </CardContent>
            </Card>
          ))}
        </div>
      )}
      <ServiceDialog key={editing === null ? "closed" : editing === "new" ? "new" : editing.id} service={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "service"}?`}
        description="Existing appointments keep their time and the service's name; nobody can book it any more."
        confirmLabel="Delete"
        destructive
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </div>
  );
}

function ServiceDialog({ service, onClose }: { service: ServiceDto | "new" | null; onClose: () => void }) {
  const { data: resources } = useResources();
  const existing = service && service !== "new" ? service : null;
  const [form, setForm] = React.useState(() => ({
    name: existing?.name ?? "",
    durationMinutes: String(existing?.durationMinutes ?? 30),
    bufferBeforeMinutes: String(existing?.bufferBeforeMinutes ?? 0),
    bufferAfterMinutes: String(existing?.bufferAfterMinutes ?? 0),
    price: existing?.priceCents != null ? (existing.priceCents / 100).toFixed(2) : "",
    bookable: existing?.bookable ?? true,
  }));
  const [resourceIds, setResourceIds] = React.useState<string[]>(existing?.resourceIds ?? []);
  const save = useApiMutation<Record<string, unknown>, ServiceDto>((body) => (existing ? api.updateService({ id: existing.id, ...body }) : api.createService(body)), {
    invalidate: "services",
    failure: "Could not save the service",
    success: (s) => `Saved ${s.name}`,
  });
  const errors = fieldErrorsOf(save.error);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        name: form.name,
        durationMinutes: Number(form.durationMinutes),
        bufferBeforeMinutes: Number(form.bufferBeforeMinutes),
        bufferAfterMinutes: Number(form.bufferAfterMinutes),
        priceCents: form.price.trim() ? Math.round(Number(form.price) * 100) : null,
        bookable: form.bookable,
        resourceIds,
      },
      { onSuccess: onClose },
    );
  };
  const field = (key: keyof typeof form, label: string, type = "number") => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`service-${key}`}>{label}</Label>
      <Input
        id={`service-${key}`}
        type={type}
        value={String(form[key])}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        aria-invalid={errors[key] ? true : undefined}
        data-testid={`service-${key}`}
      />
      <FieldError id={`service-${key}-error`} message={errors[key === "price" ? "priceCents" : key]} />
    </div>
  );

  return (
    <Dialog open={Boolean(service)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid="service-dialog">
        <DialogHeader>
          <DialogTitle>{existing ? `Edit ${existing.name}` : "Add service"}</DialogTitle>
          <DialogDescription>Durations and buffers are in minutes. Changes apply to new bookings.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          {field("name", "Name", "text")}
          <div className="grid grid-cols-3 gap-3">
            {field("durationMinutes", "Duration")}
            {field("bufferBeforeMinutes", "Buffer before")}
            {field("bufferAfterMinutes", "Buffer after")}
          </div>
          {field("price", "Price (USD, optional)", "text")}
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium">Who or what it needs (one of them)</legend>
            {(resources ?? []).length === 0 ? (
              <p className="text-xs text-muted-foreground">No staff or rooms yet: the business takes one appointment at a time.</p>
            ) : (
              (resources ?? []).map((r) => (
                <label key={r.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={resourceIds.includes(r.id)}
                    onChange={(e) => setResourceIds(e.target.checked ? [...resourceIds, r.id] : resourceIds.filter((id) => id !== r.id))}
                  />
                  {r.name} <span className="text-xs text-muted-foreground">({r.kind})</span>
                </label>
              ))
            )}
          </fieldset>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.bookable} onChange={(e) => setForm({ ...form, bookable: e.target.checked })} />
            Customers can book it
          </label>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending} data-testid="service-save">
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
