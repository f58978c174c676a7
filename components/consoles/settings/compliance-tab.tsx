"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { DEFAULT_NOTICE } from "@/lib/compliance/notice";
import type { ComplianceSettingsView } from "@/lib/compliance/settings";
import type { RegistrationView } from "@/lib/compliance/messaging-registration";
import type { ComplianceSettingsInput } from "@/lib/compliance/schema";
import { serverFieldErrors } from "@/components/platform/server-errors";

const KEY = ["/api/settings/compliance"] as const;
const BAA_PROVIDERS = [
  { id: "anthropic", label: "Anthropic (language model)" },
  { id: "elevenlabs", label: "ElevenLabs (voice)" },
  { id: "deepgram", label: "Deepgram (transcription)" },
];

/** Settings → Compliance: the notice callers hear, the business's state, HIPAA mode and the exports (docs/compliance.md). */
export function ComplianceTab() {
  const settings = useQuery<ComplianceSettingsView>({ queryKey: KEY });
  if (settings.isLoading || !settings.data) return <Skeleton className="h-64 w-full" />;
  return <ComplianceForm s={settings.data} />;
}

function ComplianceForm({ s }: { s: ComplianceSettingsView }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(s.noticeText ?? "");
  const [state, setState] = useState(s.businessStateSource === "settings" ? (s.businessState ?? "") : "");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = useMutation<ComplianceSettingsView, Error, ComplianceSettingsInput>({
    mutationFn: async (patch) => (await apiRequest("PUT", "/api/settings/compliance", patch)).json(),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(KEY, saved);
      toast.success("Compliance settings saved");
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      setErrors(serverFieldErrors(error) ?? {});
      toast.error("Failed to save compliance settings", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  return (
    <div className="flex flex-col gap-6" data-testid="compliance-settings">
      <Card>
        <CardHeader>
          <CardTitle>Call notice</CardTitle>
          <CardDescription>
            Played before anything is recorded or transcribed, and sent with a text conversation&apos;s first reply. Callers in all-party-consent states always hear it, with a
            request for consent.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex items-center justify-between gap-4">
            <div className="flex flex-col gap-1">
              <Label htmlFor="notice-enabled">Play the notice on every call</Label>
              <p className="text-sm text-muted-foreground">
                {s.noticeRequired ? `Required by law in ${s.businessState}: it cannot be switched off.` : "You may switch it off where no law requires it."}
              </p>
            </div>
            <Switch id="notice-enabled" checked={s.noticeEnabled} disabled={save.isPending || (s.noticeRequired && s.noticeEnabled)} onCheckedChange={(v) => save.mutate({ noticeEnabled: v })} />
          </div>
          <FieldError id="notice-enabled-error" message={errors.noticeEnabled} />
          <div className="flex items-center justify-between gap-4">
            <div className="flex flex-col gap-1">
              <Label htmlFor="record-calls">Record calls where consent holds</Label>
              <p className="text-sm text-muted-foreground">Twilio numbers record the whole call after the notice; recordings are discarded when the caller hangs up during it.</p>
            </div>
            <Switch id="record-calls" checked={s.recordCalls} disabled={save.isPending} onCheckedChange={(v) => save.mutate({ recordCalls: v })} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="notice-text">Your wording (it must still say it is an AI and that calls may be recorded)</Label>
            <Textarea id="notice-text" value={text} placeholder={DEFAULT_NOTICE} maxLength={300} onChange={(e) => setText(e.target.value)} aria-invalid={Boolean(errors.noticeText)} />
            <FieldError id="notice-text-error" message={errors.noticeText} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="business-state">Business state (two letters)</Label>
            <Input id="business-state" value={state} maxLength={2} placeholder={s.businessState ?? "e.g. CA"} onChange={(e) => setState(e.target.value.toUpperCase())} className="w-24" />
            <p className="text-sm text-muted-foreground">
              {s.businessState ? `Now ${s.businessState} (from your ${s.businessStateSource === "settings" ? "setting" : s.businessStateSource}).` : "Unknown: set it so the right rules apply."}
            </p>
            <FieldError id="business-state-error" message={errors.businessState} />
          </div>
          <div>
            <Button disabled={save.isPending} onClick={() => save.mutate({ noticeText: text.trim() || null, businessState: state.trim() || null })}>
              Save notice
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>HIPAA mode</CardTitle>
          <CardDescription>
            Only providers you have a Business Associate Agreement with (or the offline ones) handle calls; alerts carry no health details; opened transcripts and recordings are
            logged; sessions end after 15 idle minutes.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="hipaa-mode">HIPAA mode{s.hipaaModeDefault ? " (on by default for dental and medical businesses)" : ""}</Label>
            <Switch id="hipaa-mode" checked={s.hipaaMode} disabled={save.isPending} onCheckedChange={(v) => save.mutate({ hipaaMode: v })} />
          </div>
          <fieldset className="flex flex-col gap-2" disabled={!s.hipaaMode || save.isPending}>
            <legend className="text-sm font-medium">Providers with a signed BAA</legend>
            {BAA_PROVIDERS.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={s.baaProviders.includes(p.id)}
                  onChange={(e) => save.mutate({ baaProviders: e.target.checked ? [...s.baaProviders, p.id] : s.baaProviders.filter((x) => x !== p.id) })}
                />
                {p.label}
              </label>
            ))}
          </fieldset>
        </CardContent>
      </Card>
      <MessagingRegistrationCard />
      <Card>
        <CardHeader>
          <CardTitle>Exports</CardTitle>
          <CardDescription>CSV files that open in a spreadsheet.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-sm">
          <a className="underline" href="/api/compliance/access-log?format=csv" download>
            Access log: who opened which transcript or recording
          </a>
          <a className="underline" href="/api/compliance/erasures?format=csv" download>
            Erasure certificates
          </a>
        </CardContent>
      </Card>
    </div>
  );
}

const REGISTRATION_KEY = ["/api/compliance/messaging-registration"] as const;

/** A2P 10DLC: the messaging registration's state, a form to submit it, and the texts waiting for it with the reason. */
function MessagingRegistrationCard() {
  const queryClient = useQueryClient();
  const registration = useQuery<RegistrationView>({ queryKey: REGISTRATION_KEY });
  const [brandName, setBrandName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = useMutation<RegistrationView, Error, { brandName: string }>({
    mutationFn: async (body) => (await apiRequest("POST", "/api/compliance/messaging-registration", body)).json(),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(REGISTRATION_KEY, saved);
      toast.success("Messaging registration submitted");
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      setErrors(serverFieldErrors(error) ?? {});
      toast.error("The registration could not be submitted", { description: serverMessage(error) ?? "Please try again." });
    },
  });
  const r = registration.data;
  const label: Record<RegistrationView["status"], string> = {
    not_submitted: "Not submitted",
    pending: "Awaiting approval",
    approved: "Approved",
    rejected: "Refused",
  };
  return (
    <Card data-testid="messaging-registration">
      <CardHeader>
        <CardTitle>Text messaging registration (A2P 10DLC)</CardTitle>
        <CardDescription>US carriers block texts from local numbers whose business is not registered. Until the registration is approved, texts to callers wait here.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {!r ? (
          <Skeleton className="h-16 w-full" />
        ) : (
          <>
            <p>
              Status: <strong>{label[r.status]}</strong> ({r.provider === "twilio" ? "Twilio" : "simulated carrier"})
              {r.reason ? ` — ${r.reason}` : ""}
            </p>
            {r.queuedTexts.length ? (
              <ul className="flex flex-col gap-1" data-testid="queued-texts">
                {r.queuedTexts.map((q) => (
                  <li key={q.id} className="rounded-md bg-muted px-3 py-2">
                    To {q.to}: “{q.body}” <span className="block text-xs text-muted-foreground">{q.reason}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            {r.status !== "approved" && r.status !== "pending" ? (
              <div className="flex flex-col gap-2">
                <Label htmlFor="brand-name">Legal business name</Label>
                <div className="flex gap-2">
                  <Input id="brand-name" value={brandName} maxLength={120} onChange={(e) => setBrandName(e.target.value)} aria-invalid={Boolean(errors.brandName)} />
                  <Button disabled={submit.isPending || !brandName.trim()} onClick={() => submit.mutate({ brandName: brandName.trim() })}>
                    Submit
                  </Button>
                </div>
                <FieldError id="brand-name-error" message={errors.brandName ?? errors.customerProfileBundleSid ?? errors.a2pProfileBundleSid} />
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
