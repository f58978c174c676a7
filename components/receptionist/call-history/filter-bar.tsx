"use client";

import { useQuery } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { callStatuses, messageStatuses, type HistoryType } from "@/lib/receptionist/call-history/constants";
import { statusLabel } from "./format";

export type HistoryFilters = {
  type: HistoryType;
  from: string; // YYYY-MM-DD (local) or ""
  to: string;
  phoneNumberId: string;
  direction: "" | "inbound" | "outbound";
  status: string;
  spam: "" | "true" | "false";
};

export const emptyFilters: HistoryFilters = { type: "all", from: "", to: "", phoneNumberId: "", direction: "", status: "", spam: "" };

type PhoneNumberOption = { id: string; phoneNumber: string; friendlyName: string };

/** The statuses that make sense for the chosen type. */
function statusOptions(type: HistoryType): readonly string[] {
  if (type === "message") return messageStatuses;
  if (type === "voicemail") return ["voicemail"];
  if (type === "call") return callStatuses.filter((s) => s !== "voicemail");
  return [...new Set<string>([...callStatuses, ...messageStatuses])];
}

export function FilterBar({ value, onChange }: { value: HistoryFilters; onChange: (next: HistoryFilters) => void }) {
  // Another screen owns this route; when it is unavailable the filter offers "All numbers" only.
  const numbers = useQuery<PhoneNumberOption[]>({ queryKey: ["/api/phone-numbers"], retry: false });
  const numberOptions = Array.isArray(numbers.data) ? numbers.data : [];
  const set = <K extends keyof HistoryFilters>(key: K, v: HistoryFilters[K]) => onChange({ ...value, [key]: v });
  const statuses = statusOptions(value.type);
  const isFiltered = JSON.stringify(value) !== JSON.stringify(emptyFilters);

  return (
    <section aria-label="Filters" className="grid grid-cols-1 gap-3 rounded-xl border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-[repeat(7,minmax(0,1fr))_auto]">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-from">From</Label>
        <Input id="history-from" type="date" value={value.from} max={value.to || undefined} onChange={(e) => set("from", e.target.value)} data-testid="history-filter-from" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-to">To</Label>
        <Input id="history-to" type="date" value={value.to} min={value.from || undefined} onChange={(e) => set("to", e.target.value)} data-testid="history-filter-to" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-number">Number</Label>
        <Select id="history-number" value={value.phoneNumberId} onChange={(e) => set("phoneNumberId", e.target.value)} data-testid="history-filter-number">
          <option value="">All numbers</option>
          {numberOptions.map((n) => (
            <option key={n.id} value={n.id}>
              {n.friendlyName} ({n.phoneNumber})
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-type">Type</Label>
        <Select
          id="history-type"
          value={value.type}
          onChange={(e) => {
            const type = e.target.value as HistoryType;
            onChange({ ...value, type, status: statusOptions(type).includes(value.status) ? value.status : "" });
          }}
          data-testid="history-filter-type"
        >
          <option value="all">All</option>
          <option value="call">Calls</option>
          <option value="message">Texts</option>
          <option value="voicemail">Voicemails</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-direction">Direction</Label>
        <Select id="history-direction" value={value.direction} onChange={(e) => set("direction", e.target.value as HistoryFilters["direction"])} data-testid="history-filter-direction">
          <option value="">Both</option>
          <option value="inbound">Inbound</option>
          <option value="outbound">Outbound</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-status">Status</Label>
        <Select id="history-status" value={value.status} onChange={(e) => set("status", e.target.value)} data-testid="history-filter-status">
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-spam">Spam</Label>
        <Select id="history-spam" value={value.spam} onChange={(e) => set("spam", e.target.value as HistoryFilters["spam"])} data-testid="history-filter-spam">
          <option value="">Include spam</option>
          <option value="false">Hide spam</option>
          <option value="true">Spam only</option>
        </Select>
      </div>
      <div className="flex items-end">
        <Button variant="ghost" className="w-full" onClick={() => onChange(emptyFilters)} disabled={!isFiltered} data-testid="history-filter-reset">
          <RotateCcw aria-hidden />
          Reset
        </Button>
      </div>
    </section>
  );
}

/** Filters → the API's query string. Dates are whole local days: from 00:00 to 23:59:59.999. */
export function toQuery(filters: HistoryFilters): URLSearchParams {
  const qs = new URLSearchParams();
  if (filters.type !== "all") qs.set("type", filters.type);
  if (filters.from) qs.set("from", new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) qs.set("to", new Date(`${filters.to}T23:59:59.999`).toISOString());
  if (filters.phoneNumberId) qs.set("phoneNumberId", filters.phoneNumberId);
  if (filters.direction) qs.set("direction", filters.direction);
  if (filters.status) qs.set("status", filters.status);
  if (filters.spam) qs.set("spam", filters.spam);
  return qs;
}
