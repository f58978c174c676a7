"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import { callerListInput, callPolicyInput } from "@/lib/phone/routing/schema";

type CapUsage = { cap: number; used: number; percent: number; reached: boolean; alert: boolean; atCap: string; message: string | null };
type Policy = {
  spamThreshold: number;
  spamAction: "block" | "voicemail";
  shareSpamReports: boolean;
  monthlyCapCredits: number | null;
  atCap: "voicemail_only" | "keep_answering";
  usage: CapUsage | null;
};
type Entry = { id: string; phoneNumber: string; list: "block" | "allow"; note: string; source: "owner" | "not_spam"; createdAt: string };

const POLICY_KEY = ["/api/call-policy"] as const;
const BLOCKLIST_KEY = ["/api/blocklist"] as const;

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) found[issue.path.join(".")] ??= issue.message;
  return found;
}

/** Settings → Calls: spam threshold and action, shared reports, the monthly cap, and the block and allow lists. */
export function CallsTab() {
  return (
    <div className="flex flex-col gap-6">
      <PolicyCard />
      <BlocklistCard />
    </div>
  );
}

function PolicyCard() {
  const client = useQueryClient();
  const policy = useQuery<Policy>({ queryKey: POLICY_KEY });
  if (policy.isLoading || !policy.data) return <Skeleton className="h-72 w-full" />;
  return <PolicyForm key={JSON.stringify(policy.data)} policy={policy.data} onSaved={(p) => client.setQueryData(POLICY_KEY, p)} />;
}

function PolicyForm({ policy, onSaved }: { policy: Policy; onSaved: (p: Policy) => void }) {
  const [threshold, setThreshold] = React.useState(String(policy.spamThreshold));
  const [spamAction, setSpamAction] = React.useState(policy.spamAction);
  const [share, setShare] = React.useState(policy.shareSpamReports);
  const [cap, setCap] = React.useState(policy.monthlyCapCredits ? String(policy.monthlyCapCredits) : "");
  const [atCap, setAtCap] = React.useState(policy.atCap);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: async (body: unknown) => (await apiRequest("PUT", "/api/call-policy", body)).json() as Promise<Policy>,
    onSuccess: (saved) => {
      toast.success("Call settings saved");
      onSaved(saved);
    },
    onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Could not save the call settings" }),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = {
      spamThreshold: Number(threshold),
      spamAction,
      shareSpamReports: share,
      monthlyCapCredits: cap.trim() === "" ? null : Number(cap),
      atCap,
    };
    const parsed = callPolicyInput.safeParse(body);
    if (!parsed.success) return setErrors(issues(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  const usage = policy.usage;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Spam and spending</CardTitle>
        <CardDescription>Spam calls cost nothing. Calls under 15 seconds and calls that failed on our side are credited back too.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" data-testid="call-policy-form">
          {usage?.alert ? (
            <div role="status" className="flex items-start gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3" data-testid="cap-usage-alert">
              <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
              <div className="flex flex-col gap-0.5">
                <span className="font-medium">Credit Usage Alert</span>
                <span className="text-sm text-muted-foreground">{usage.message}</span>
              </div>
            </div>
          ) : usage ? (
            <p className="text-sm text-muted-foreground" data-testid="cap-usage">
              This month: {usage.used} of {usage.cap} credits ({usage.percent}%).
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-2">
              <Label htmlFor="policy-threshold">Spam threshold (1–100)</Label>
              <Input id="policy-threshold" type="number" min={1} max={100} value={threshold} onChange={(e) => setThreshold(e.target.value)} aria-invalid={errors.spamThreshold ? true : undefined} data-testid="policy-threshold" />
              <FieldError id="policy-threshold-error" message={errors.spamThreshold} />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="policy-spam-action">Calls at or above it</Label>
              <Select id="policy-spam-action" value={spamAction} onChange={(e) => setSpamAction(e.target.value as Policy["spamAction"])} data-testid="policy-spam-action">
                <option value="voicemail">Go to voicemail</option>
                <option value="block">Are blocked</option>
              </Select>
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="policy-cap">Monthly cap (credits)</Label>
              <Input id="policy-cap" type="number" min={1} placeholder="No cap" value={cap} onChange={(e) => setCap(e.target.value)} aria-invalid={errors.monthlyCapCredits ? true : undefined} data-testid="policy-cap" />
              <FieldError id="policy-cap-error" message={errors.monthlyCapCredits} />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="policy-at-cap">At the cap</Label>
              <Select id="policy-at-cap" value={atCap} onChange={(e) => setAtCap(e.target.value as Policy["atCap"])} data-testid="policy-at-cap">
                <option value="voicemail_only">Voicemail only</option>
                <option value="keep_answering">Keep answering and bill</option>
              </Select>
            </div>
          </div>
          <div className="flex items-center justify-between gap-4 rounded-lg border border-border p-4">
            <div className="flex flex-col gap-1">
              <Label htmlFor="policy-share">Share spam reports</Label>
              <p className="text-xs text-muted-foreground">
                Numbers you block or that call you with spam help other businesses, shared only as a one-way hash — never the number.
              </p>
            </div>
            <Switch id="policy-share" checked={share} onCheckedChange={setShare} data-testid="policy-share" />
          </div>
          <Button type="submit" className="self-start" disabled={save.isPending} data-testid="policy-submit">
            {save.isPending ? <Spinner /> : null}
            Save
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function BlocklistCard() {
  const client = useQueryClient();
  const list = useQuery<{ entries: Entry[] }>({ queryKey: BLOCKLIST_KEY });
  const [phoneNumber, setPhoneNumber] = React.useState("");
  const [which, setWhich] = React.useState<"block" | "allow">("block");
  const [note, setNote] = React.useState("");
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const refresh = () => void client.invalidateQueries({ queryKey: BLOCKLIST_KEY });
  const add = useMutation({
    mutationFn: async (body: unknown) => (await apiRequest("POST", "/api/blocklist", body)).json(),
    onSuccess: () => {
      toast.success(which === "block" ? "Number blocked" : "Number allowed");
      setPhoneNumber("");
      setNote("");
      refresh();
    },
    onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Could not add the number" }),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => (await apiRequest("DELETE", `/api/blocklist?id=${encodeURIComponent(id)}`)).json(),
    onSuccess: refresh,
    onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Could not remove the number" }),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = callerListInput.safeParse({ phoneNumber, list: which, note });
    if (!parsed.success) return setErrors(issues(parsed.error));
    setErrors({});
    add.mutate(parsed.data);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Block and allow lists</CardTitle>
        <CardDescription>Blocked callers are turned away and their texts go unanswered. Allowed callers are never treated as spam.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3" data-testid="blocklist-form">
          <div className="flex min-w-48 flex-1 flex-col gap-1">
            <Label htmlFor="blocklist-number">Number</Label>
            <Input id="blocklist-number" type="tel" placeholder="+14155550123" value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} aria-invalid={errors.phoneNumber ? true : undefined} data-testid="blocklist-number" />
            <FieldError id="blocklist-number-error" message={errors.phoneNumber} />
          </div>
          <div className="flex w-32 flex-col gap-1">
            <Label htmlFor="blocklist-list">List</Label>
            <Select id="blocklist-list" value={which} onChange={(e) => setWhich(e.target.value as "block" | "allow")} data-testid="blocklist-list">
              <option value="block">Block</option>
              <option value="allow">Allow</option>
            </Select>
          </div>
          <div className="flex min-w-40 flex-1 flex-col gap-1">
            <Label htmlFor="blocklist-note">Note</Label>
            <Input id="blocklist-note" value={note} onChange={(e) => setNote(e.target.value)} placeholder="Optional" />
            <FieldError id="blocklist-note-error" message={errors.note} />
          </div>
          <Button type="submit" className="mt-6" disabled={add.isPending} data-testid="blocklist-add">
            {add.isPending ? <Spinner /> : null}
            Add
          </Button>
        </form>
        {list.isLoading ? (
          <Skeleton className="h-24 w-full" />
        ) : list.data?.entries.length ? (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border" data-testid="blocklist-entries">
            {list.data.entries.map((e) => (
              <li key={e.id} className="flex items-center justify-between gap-3 px-4 py-2">
                <div className="flex flex-col">
                  <span className="font-medium tabular-nums">{e.phoneNumber}</span>
                  <span className="text-xs text-muted-foreground">{e.note || (e.source === "not_spam" ? "Marked not spam" : "—")}</span>
                </div>
                <div className="flex items-center gap-2">
                  <Badge variant={e.list === "block" ? "destructive" : "secondary"}>{e.list === "block" ? "Blocked" : "Allowed"}</Badge>
                  <Button variant="ghost" size="icon" aria-label={`Remove ${e.phoneNumber}`} onClick={() => remove.mutate(e.id)} disabled={remove.isPending}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No numbers listed yet.</p>
        )}
      </CardContent>
    </Card>
  );
}
