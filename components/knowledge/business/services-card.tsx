"use client";

import * as React from "react";
import { Pencil, Plus, Tag, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { serverFieldErrors } from "@/components/platform/server-errors";
import { isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { createServiceInput, formatDuration, formatPrice, parsePriceInput } from "@/lib/knowledge/services/schema";
import { servicePrice } from "./format";
import { useCreateService, useDeleteService, useUpdateService, type Service } from "./use-business";

/** Services with durations and prices: what the assistant quotes, and what bookings use. Saved one by one. */
export function ServicesCard({ services, currency }: { services: Service[]; currency: string }) {
  const [editing, setEditing] = React.useState<Service | "new" | null>(null);
  const [deleting, setDeleting] = React.useState<Service | null>(null);
  const remove = useDeleteService();

  return (
    <Card data-testid="business-services">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Tag className="size-4" aria-hidden />
          </span>
          <div className="flex flex-col gap-1">
            <CardTitle>Services and prices</CardTitle>
            <CardDescription>How long each takes and what it costs. The assistant quotes only prices listed here.</CardDescription>
          </div>
        </div>
        <Button size="sm" onClick={() => setEditing("new")} data-testid="business-add-service">
          <Plus aria-hidden />
          Add service
        </Button>
      </CardHeader>
      <CardContent>
        {services.length === 0 ? (
          <p className="text-sm text-muted-foreground">No services yet. Add what you offer, or import them from your website.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border" data-testid="business-service-list">
            {services.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="business-service">
                <div className="flex min-w-0 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium" data-testid="business-service-name">
                      {s.name}
                    </span>
                    {!s.isActive ? <Badge variant="outline">Hidden</Badge> : null}
                    {!s.bookable ? <Badge variant="secondary">Not bookable</Badge> : null}
                  </div>
                  <span className="text-sm text-muted-foreground" data-testid="business-service-details">
                    {servicePrice(s, currency)} · {formatDuration(s.durationMinutes)}
                    {s.description ? ` · ${s.description}` : ""}
                  </span>
                </div>
                <div className="flex gap-1">
                  <Button variant="ghost" size="icon" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                    <Pencil aria-hidden />
                  </Button>
                  <Button variant="ghost" size="icon" onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ServiceDialog service={editing} currency={currency} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "service"}?`}
        description="Your assistant stops mentioning it. To keep it but stop offering it, edit it and switch off “Offered”."
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          const target = deleting;
          if (!target) return;
          remove.mutate(target.id, {
            onSuccess: () => toast.success("Service deleted", { description: `${target.name} is no longer in your services.` }),
            onError: (error) => !isUnauthorizedError(error) && toast.error("Failed to delete the service", { description: serverMessage(error) ?? "Please try again." }),
          });
          setDeleting(null);
        }}
      />
    </Card>
  );
}

type ServiceFormState = { name: string; description: string; duration: string; price: string; bufferBefore: string; bufferAfter: string; bookable: boolean; isActive: boolean };

function formState(service: Service | null, currency: string): ServiceFormState {
  return {
    name: service?.name ?? "",
    description: service?.description ?? "",
    duration: String(service?.durationMinutes ?? 30),
    price: service ? (service.priceCents != null ? formatPrice(service.priceCents, currency) : (service.priceText ?? "")) : "",
    bufferBefore: String(service?.bufferBeforeMinutes ?? 0),
    bufferAfter: String(service?.bufferAfterMinutes ?? 0),
    bookable: service?.bookable ?? true,
    isActive: service?.isActive ?? true,
  };
}

function ServiceDialog({ service, currency, onClose }: { service: Service | "new" | null; currency: string; onClose: () => void }) {
  const open = service !== null;
  const existing = service && service !== "new" ? service : null;
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto" data-testid="service-dialog">
        <DialogHeader>
          <DialogTitle>{existing ? `Edit ${existing.name}` : "Add a service"}</DialogTitle>
          <DialogDescription>What callers can ask about and book. A price like “120” or “$120.50”, or words such as “from $80”.</DialogDescription>
        </DialogHeader>
        {open ? <ServiceForm key={existing?.id ?? "new"} service={existing} currency={currency} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ServiceForm({ service, currency, onDone }: { service: Service | null; currency: string; onDone: () => void }) {
  const [state, setState] = React.useState(() => formState(service, currency));
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const create = useCreateService();
  const update = useUpdateService();
  const pending = create.isPending || update.isPending;
  const set = <K extends keyof ServiceFormState>(key: K, value: ServiceFormState[K]) => setState((s) => ({ ...s, [key]: value }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const price = parsePriceInput(state.price);
    const number = (v: string) => (v.trim() === "" ? NaN : Number(v));
    const payload = {
      name: state.name,
      description: state.description,
      durationMinutes: number(state.duration),
      bufferBeforeMinutes: number(state.bufferBefore),
      bufferAfterMinutes: number(state.bufferAfter),
      priceCents: price.priceCents,
      priceText: price.priceText,
      bookable: state.bookable,
      isActive: state.isActive,
    };
    const parsed = createServiceInput.safeParse(payload);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.map(String).join(".")] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    const handlers = {
      onSuccess: (saved: Service) => {
        toast.success(service ? "Service updated" : "Service added", { description: `${saved.name}: ${servicePrice(saved, currency)}, ${formatDuration(saved.durationMinutes)}.` });
        onDone();
      },
      onError: (error: Error) => {
        if (isUnauthorizedError(error)) return;
        setErrors(serverFieldErrors(error) ?? {});
        toast.error(service ? "Failed to update the service" : "Failed to add the service", { description: serverMessage(error) ?? "Please try again." });
      },
    };
    if (service) update.mutate({ id: service.id, ...parsed.data }, handlers);
    else create.mutate(parsed.data, handlers);
  };

  const priceError = errors.priceCents ?? errors.priceText;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor="service-name">Name</Label>
        <Input id="service-name" value={state.name} onChange={(e) => set("name", e.target.value)} aria-invalid={errors.name ? true : undefined} data-testid="service-name" />
        <FieldError id="service-name-error" message={errors.name} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="service-duration">Duration (minutes)</Label>
          <Input id="service-duration" type="number" min={5} step={5} value={state.duration} onChange={(e) => set("duration", e.target.value)} aria-invalid={errors.durationMinutes ? true : undefined} data-testid="service-duration" />
          <FieldError id="service-duration-error" message={errors.durationMinutes} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="service-price">Price</Label>
          <Input id="service-price" value={state.price} placeholder="120, or from $80" onChange={(e) => set("price", e.target.value)} aria-invalid={priceError ? true : undefined} data-testid="service-price" />
          <FieldError id="service-price-error" message={priceError} />
        </div>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="service-description">Description (optional)</Label>
        <Textarea id="service-description" rows={2} value={state.description} onChange={(e) => set("description", e.target.value)} aria-invalid={errors.description ? true : undefined} />
        <FieldError id="service-description-error" message={errors.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="service-buffer-before">Buffer before (minutes)</Label>
          <Input id="service-buffer-before" type="number" min={0} step={5} value={state.bufferBefore} onChange={(e) => set("bufferBefore", e.target.value)} aria-invalid={errors.bufferBeforeMinutes ? true : undefined} />
          <FieldError id="service-buffer-before-error" message={errors.bufferBeforeMinutes} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="service-buffer-after">Buffer after (minutes)</Label>
          <Input id="service-buffer-after" type="number" min={0} step={5} value={state.bufferAfter} onChange={(e) => set("bufferAfter", e.target.value)} aria-invalid={errors.bufferAfterMinutes ? true : undefined} />
          <FieldError id="service-buffer-after-error" message={errors.bufferAfterMinutes} />
        </div>
      </div>
      <label className="flex items-center gap-3 text-sm">
        <Switch checked={state.bookable} onCheckedChange={(v) => set("bookable", v)} aria-label="Callers can book it" />
        Callers can book it
      </label>
      <label className="flex items-center gap-3 text-sm">
        <Switch checked={state.isActive} onCheckedChange={(v) => set("isActive", v)} aria-label="Offered" />
        Offered (the assistant mentions it)
      </label>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending} data-testid="service-submit">
          {pending ? <Spinner /> : null}
          {pending ? "Saving..." : "Save"}
        </Button>
      </DialogFooter>
    </form>
  );
}
