"use client";

import * as React from "react";
import { Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { WEEKDAYS } from "@/lib/scheduling/time";
import { api, useApiMutation, useResources, type ResourceDto } from "./api";

function hoursText(r: ResourceDto): string {
  if (r.followsBusinessHours || !r.weeklyHours) return "Business hours";
  return WEEKDAYS.filter((d) => r.weeklyHours?.[d]?.length)
    .map((d) => `${d} ${r.weeklyHours![d]!.map((x) => `${x.open}–${x.close}`).join(", ")}`)
    .join(" · ");
}

/** Staff, rooms and equipment: who or what an appointment occupies, with their own hours if they differ. */
export function StaffTab() {
  const { data: resources } = useResources();
  const [name, setName] = React.useState("");
  const [kind, setKind] = React.useState<"staff" | "room" | "equipment">("staff");
  const [own, setOwn] = React.useState(false);
  const [open, setOpen] = React.useState("09:00");
  const [close, setClose] = React.useState("17:00");
  const [days, setDays] = React.useState<string[]>(["mon", "tue", "wed", "thu", "fri"]);
  const create = useApiMutation<unknown, ResourceDto>(api.createResource, { invalidate: "resources", failure: "Could not add", success: (r) => `Added ${r.name}` });
  const archive = useApiMutation<string, unknown>(api.archiveResource, { invalidate: "resources", failure: "Could not remove", success: () => "Removed" });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        name,
        kind,
        followsBusinessHours: !own,
        weeklyHours: own ? Object.fromEntries(days.map((d) => [d, [{ open, close }]])) : null,
      },
      { onSuccess: () => setName("") },
    );
  };

  return (
    <div className="flex flex-col gap-6" data-testid="staff-tab">
      <form onSubmit={submit} className="flex flex-col gap-3 rounded-lg border border-border p-4">
        <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="resource-name">Name</Label>
            <Input id="resource-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Anna, Room 2…" data-testid="resource-name" />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="resource-kind">Kind</Label>
            <Select id="resource-kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
              <option value="staff">Staff</option>
              <option value="room">Room</option>
              <option value="equipment">Equipment</option>
            </Select>
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={own} onChange={(e) => setOwn(e.target.checked)} data-testid="resource-own-hours" />
          Has its own hours (otherwise: the business hours)
        </label>
        {own ? (
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex gap-1">
              {WEEKDAYS.map((d) => (
                <label key={d} className="flex items-center gap-1 text-xs capitalize">
                  <input type="checkbox" checked={days.includes(d)} onChange={(e) => setDays(e.target.checked ? [...days, d] : days.filter((x) => x !== d))} />
                  {d}
                </label>
              ))}
            </div>
            <Input type="time" value={open} onChange={(e) => setOpen(e.target.value)} className="w-28" aria-label="Opens" data-testid="resource-open" />
            <Input type="time" value={close} onChange={(e) => setClose(e.target.value)} className="w-28" aria-label="Closes" data-testid="resource-close" />
          </div>
        ) : null}
        <div>
          <Button type="submit" disabled={!name.trim() || create.isPending} data-testid="resource-add">
            <Plus aria-hidden />
            Add
          </Button>
        </div>
      </form>
      <div className="grid gap-3 md:grid-cols-2">
        {(resources ?? []).map((r) => (
          <Card key={r.id} data-testid="resource-card">
            <CardContent className="flex items-start justify-between gap-3 p-4">
              <div className="flex flex-col gap-1">
                <span className="font-semibold">
                  {r.name} <Badge variant="outline">{r.kind}</Badge>
                </span>
                <span className="text-xs capitalize text-muted-foreground">{hoursText(r)}</span>
              </div>
              <Button variant="ghost" size="icon" aria-label={`Remove ${r.name}`} onClick={() => archive.mutate(r.id)}>
                <Trash2 aria-hidden />
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
