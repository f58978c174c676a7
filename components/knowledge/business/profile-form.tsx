"use client";

import * as React from "react";
import { CalendarOff, Clock, Copy, HelpCircle, MapPin, Plus, ScrollText, Trash2, X } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { businessProfileInput, WEEKDAYS, WEEKDAY_NAMES, type Weekday } from "@/lib/knowledge/business-profile/schema";
import { serverFieldErrors } from "@/components/platform/server-errors";
import { browserTimeZone, timeZones } from "./format";
import { useSaveBusinessProfile, type BusinessProfile } from "./use-business";

type Range = { open: string; close: string };
type HolidayState = { date: string; name: string; closed: boolean; hours: Range };
export type ProfileFormState = {
  name: string;
  timezone: string;
  address: string;
  phone: string;
  website: string;
  weeklyHours: Record<Weekday, Range[]>;
  holidays: HolidayState[];
  policies: { title: string; text: string }[];
  faqs: { question: string; answer: string }[];
};

/** A time input cannot show 24:00: midnight at the end of a day is entered and shown as 00:00. */
const toInputTime = (t: string) => (t === "24:00" ? "00:00" : t);
const fromCloseInput = (t: string) => (t === "00:00" ? "24:00" : t);

export function stateFromProfile(profile: BusinessProfile): ProfileFormState {
  return {
    name: profile.name,
    timezone: profile.timezone ?? browserTimeZone(),
    address: profile.address ?? "",
    phone: profile.phone ?? "",
    website: profile.website ?? "",
    weeklyHours: Object.fromEntries(WEEKDAYS.map((d) => [d, profile.weeklyHours[d].map((r) => ({ ...r }))])) as Record<Weekday, Range[]>,
    holidays: profile.holidays.map((h) => ({
      date: h.date,
      name: h.name ?? "",
      closed: h.hours.length === 0,
      hours: h.hours[0] ? { ...h.hours[0] } : { open: "09:00", close: "13:00" },
    })),
    policies: profile.policies.map((p) => ({ ...p })),
    faqs: profile.faqs.map((f) => ({ ...f })),
  };
}

function toInput(state: ProfileFormState) {
  return {
    name: state.name,
    timezone: state.timezone,
    address: state.address,
    phone: state.phone,
    website: state.website,
    weeklyHours: Object.fromEntries(WEEKDAYS.map((d) => [d, state.weeklyHours[d].map((r) => ({ open: r.open, close: fromCloseInput(r.close) }))])),
    holidays: state.holidays.map((h) => ({
      date: h.date,
      name: h.name,
      hours: h.closed ? [] : [{ open: h.hours.open, close: fromCloseInput(h.hours.close) }],
    })),
    policies: state.policies,
    faqs: state.faqs,
  };
}

function SectionIcon({ icon: Icon }: { icon: typeof Clock }) {
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
      <Icon className="size-4" aria-hidden />
    </span>
  );
}

function SectionHeader({ icon, title, description, aside }: { icon: typeof Clock; title: string; description: string; aside?: React.ReactNode }) {
  return (
    <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
      <div className="flex items-start gap-3">
        <SectionIcon icon={icon} />
        <div className="flex flex-col gap-1">
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </div>
      {aside}
    </CardHeader>
  );
}

/**
 * The business profile's form: basics, weekly hours (several ranges a day), holidays and special
 * hours, policies and FAQs, saved together with PUT /api/business-profile. Validated with the
 * route's own schema before sending; the server's field messages land on the same fields.
 */
export function ProfileForm({ profile }: { profile: BusinessProfile }) {
  const initial = React.useMemo(() => stateFromProfile(profile), [profile]);
  const [state, setState] = React.useState<ProfileFormState>(initial);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const save = useSaveBusinessProfile();
  const zones = React.useMemo(() => timeZones(state.timezone), [state.timezone]);
  const dirty = JSON.stringify(state) !== JSON.stringify(initial);

  // A change saved elsewhere (an import, an answered question) shows here unless the owner is mid-edit.
  const previous = React.useRef(initial);
  React.useEffect(() => {
    const before = previous.current;
    previous.current = initial;
    setState((current) => (JSON.stringify(current) === JSON.stringify(before) ? initial : current));
  }, [initial]);

  /** Editing a field clears its messages (and those of the entries under it). */
  const clearErrors = (prefix: string) =>
    setErrors((current) => {
      const left = Object.fromEntries(Object.entries(current).filter(([path]) => path !== prefix && !path.startsWith(`${prefix}.`)));
      return Object.keys(left).length === Object.keys(current).length ? current : left;
    });
  const set = <K extends keyof ProfileFormState>(key: K, value: ProfileFormState[K]) => {
    setState((s) => ({ ...s, [key]: value }));
    clearErrors(key);
  };
  const setDay = (day: Weekday, ranges: Range[]) => {
    setState((s) => ({ ...s, weeklyHours: { ...s.weeklyHours, [day]: ranges } }));
    clearErrors(`weeklyHours.${day}`);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = businessProfileInput.safeParse(toInput(state));
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues));
      // The first field to fix, in view (the bar below says what happened; no toast over the buttons).
      requestAnimationFrame(() => {
        const first = document.querySelector<HTMLElement>('[data-testid="business-profile-form"] [aria-invalid="true"]');
        first?.scrollIntoView({ block: "center" });
        first?.focus();
      });
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        setState(stateFromProfile(saved));
        toast.success("Business profile saved", { description: "Your assistant answers from these details from the next call." });
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        setErrors(serverFieldErrors(error) ?? {});
        toast.error("Failed to save the business profile", { description: serverMessage(error) ?? "Please try again." });
      },
    });
  };

  const err = (path: string) => errors[path];

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6" data-testid="business-profile-form">
      <Card>
        <SectionHeader icon={MapPin} title="Basics" description="Who you are and where callers find you." />
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="business-name" label="Business name" error={err("name")}>
            <Input id="business-name" value={state.name} onChange={(e) => set("name", e.target.value)} aria-invalid={err("name") ? true : undefined} />
          </Field>
          <Field id="business-phone" label="Phone" error={err("phone")}>
            <Input id="business-phone" type="tel" autoComplete="tel" value={state.phone} onChange={(e) => set("phone", e.target.value)} placeholder="+1 503 555 0142" aria-invalid={err("phone") ? true : undefined} />
          </Field>
          <Field id="business-website" label="Website" error={err("website")}>
            <Input id="business-website" type="url" value={state.website} onChange={(e) => set("website", e.target.value)} placeholder="https://example.com" aria-invalid={err("website") ? true : undefined} />
          </Field>
          <Field id="business-timezone" label="Time zone" error={err("timezone")}>
            <Select id="business-timezone" value={state.timezone} onChange={(e) => set("timezone", e.target.value)} aria-invalid={err("timezone") ? true : undefined}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll("_", " ")}
                </option>
              ))}
            </Select>
          </Field>
          <div className="sm:col-span-2">
            <Field id="business-address" label="Address" error={err("address")}>
              <Textarea id="business-address" rows={2} value={state.address} onChange={(e) => set("address", e.target.value)} placeholder="Street, city, state and ZIP code" aria-invalid={err("address") ? true : undefined} />
            </Field>
          </div>
        </CardContent>
      </Card>

      <Card data-testid="business-hours">
        <SectionHeader
          icon={Clock}
          title="Opening hours"
          description={`Per day, in ${state.timezone.replaceAll("_", " ")}. Add a second range for a lunch break.`}
          aside={
            profile.status ? (
              <Badge variant={profile.status.openNow ? "success" : "outline"} data-testid="business-open-status">
                {profile.status.label}
              </Badge>
            ) : null
          }
        />
        <CardContent className="flex flex-col gap-3">
          {profile.legacy.hours && WEEKDAYS.every((d) => state.weeklyHours[d].length === 0) ? (
            <p className="rounded-lg border border-warning/30 bg-warning/5 px-3 py-2 text-sm">
              Your earlier hours were saved as text: “{profile.legacy.hours}”. Set them per day below so your assistant can tell callers whether you are open.
            </p>
          ) : null}
          <ul className="flex flex-col divide-y divide-border">
            {WEEKDAYS.map((day) => (
              <DayRow key={day} day={day} ranges={state.weeklyHours[day]} onChange={(r) => setDay(day, r)} errors={errors} />
            ))}
          </ul>
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setState((s) => ({ ...s, weeklyHours: { ...s.weeklyHours, tue: [...s.weeklyHours.mon], wed: [...s.weeklyHours.mon], thu: [...s.weeklyHours.mon], fri: [...s.weeklyHours.mon] } }))}
              data-testid="business-copy-monday"
            >
              <Copy aria-hidden />
              Copy Monday to Tuesday–Friday
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card data-testid="business-holidays">
        <SectionHeader icon={CalendarOff} title="Holidays and special hours" description="Days that differ from the weekly hours: closed, or open for part of the day." />
        <CardContent className="flex flex-col gap-3">
          {state.holidays.length === 0 ? <p className="text-sm text-muted-foreground">No holidays yet.</p> : null}
          {state.holidays.map((h, i) => {
            const update = (patch: Partial<HolidayState>) => set("holidays", state.holidays.map((x, j) => (j === i ? { ...x, ...patch } : x)));
            const rangeError = err(`holidays.${i}.hours.0.open`) ?? err(`holidays.${i}.hours.0.close`);
            return (
              <div key={i} className="flex flex-col gap-2 rounded-lg border border-border p-3" data-testid="business-holiday">
                <div className="flex items-start gap-2">
                  <div className="flex flex-1 flex-wrap items-end gap-3">
                    <div className="flex flex-col gap-1">
                      <Label htmlFor={`holiday-${i}-date`}>Date</Label>
                      <Input id={`holiday-${i}-date`} type="date" className="w-40" value={h.date} onChange={(e) => update({ date: e.target.value })} aria-invalid={err(`holidays.${i}.date`) ? true : undefined} />
                    </div>
                    <div className="flex min-w-40 flex-1 flex-col gap-1">
                      <Label htmlFor={`holiday-${i}-name`}>Name</Label>
                      <Input id={`holiday-${i}-name`} value={h.name} placeholder="Thanksgiving" onChange={(e) => update({ name: e.target.value })} />
                    </div>
                    <label className="flex h-9 items-center gap-2 text-sm">
                      <Switch checked={h.closed} onCheckedChange={(closed) => update({ closed })} aria-label="Closed all day" />
                      Closed all day
                    </label>
                    {!h.closed ? (
                      <div className="flex items-center gap-2">
                        <Input type="time" className="w-28" value={toInputTime(h.hours.open)} onChange={(e) => update({ hours: { ...h.hours, open: e.target.value } })} aria-label="Opens at" aria-invalid={rangeError ? true : undefined} />
                        <span className="text-sm text-muted-foreground">to</span>
                        <Input type="time" className="w-28" value={toInputTime(h.hours.close)} onChange={(e) => update({ hours: { ...h.hours, close: e.target.value } })} aria-label="Closes at" aria-invalid={rangeError ? true : undefined} />
                      </div>
                    ) : null}
                  </div>
                  <Button type="button" variant="ghost" size="icon" className="mt-5" onClick={() => set("holidays", state.holidays.filter((_, j) => j !== i))} aria-label={`Remove holiday ${h.name || h.date}`}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
                <FieldError id={`holiday-${i}-error`} message={err(`holidays.${i}.date`) ?? rangeError} />
              </div>
            );
          })}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => set("holidays", [...state.holidays, { date: "", name: "", closed: true, hours: { open: "09:00", close: "13:00" } }])}
              data-testid="business-add-holiday"
            >
              <Plus aria-hidden />
              Add a holiday
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card data-testid="business-policies">
        <SectionHeader icon={ScrollText} title="Policies" description="Cancellations, payment, insurance, parking: the rules your assistant explains in your words." />
        <CardContent className="flex flex-col gap-3">
          {state.policies.length === 0 ? <p className="text-sm text-muted-foreground">No policies yet.</p> : null}
          {state.policies.map((p, i) => (
            <div key={i} className="flex flex-col gap-2 rounded-lg border border-border p-3" data-testid="business-policy">
              <div className="flex items-start gap-2">
                <div className="flex flex-1 flex-col gap-2">
                  <Label htmlFor={`policy-${i}-title`}>Title</Label>
                  <Input id={`policy-${i}-title`} value={p.title} placeholder="Cancellations" onChange={(e) => set("policies", state.policies.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))} aria-invalid={err(`policies.${i}.title`) ? true : undefined} />
                  <FieldError id={`policy-${i}-title-error`} message={err(`policies.${i}.title`)} />
                  <Label htmlFor={`policy-${i}-text`}>Policy</Label>
                  <Textarea id={`policy-${i}-text`} rows={2} value={p.text} placeholder="Please give us 24 hours' notice to cancel." onChange={(e) => set("policies", state.policies.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))} aria-invalid={err(`policies.${i}.text`) ? true : undefined} />
                  <FieldError id={`policy-${i}-text-error`} message={err(`policies.${i}.text`)} />
                </div>
                <Button type="button" variant="ghost" size="icon" onClick={() => set("policies", state.policies.filter((_, j) => j !== i))} aria-label={`Remove policy ${p.title}`}>
                  <Trash2 aria-hidden />
                </Button>
              </div>
            </div>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => set("policies", [...state.policies, { title: "", text: "" }])} data-testid="business-add-policy">
              <Plus aria-hidden />
              Add a policy
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card data-testid="business-faqs">
        <SectionHeader icon={HelpCircle} title="Questions and answers" description="What callers ask, answered once. Answers to unanswered questions land here too." />
        <CardContent className="flex flex-col gap-3">
          {state.faqs.length === 0 ? <p className="text-sm text-muted-foreground">No questions yet.</p> : null}
          {state.faqs.map((f, i) => (
            <div key={i} className="flex items-start gap-2 rounded-lg border border-border p-3" data-testid="business-faq">
              <div className="flex flex-1 flex-col gap-2">
                <Label htmlFor={`faq-${i}-question`}>Question</Label>
                <Input id={`faq-${i}-question`} value={f.question} placeholder="Do you have parking?" onChange={(e) => set("faqs", state.faqs.map((x, j) => (j === i ? { ...x, question: e.target.value } : x)))} aria-invalid={err(`faqs.${i}.question`) ? true : undefined} />
                <FieldError id={`faq-${i}-question-error`} message={err(`faqs.${i}.question`)} />
                <Label htmlFor={`faq-${i}-answer`}>Answer</Label>
                <Textarea id={`faq-${i}-answer`} rows={2} value={f.answer} placeholder="Yes, free parking behind the building." onChange={(e) => set("faqs", state.faqs.map((x, j) => (j === i ? { ...x, answer: e.target.value } : x)))} aria-invalid={err(`faqs.${i}.answer`) ? true : undefined} />
                <FieldError id={`faq-${i}-answer-error`} message={err(`faqs.${i}.answer`)} />
              </div>
              <Button type="button" variant="ghost" size="icon" onClick={() => set("faqs", state.faqs.filter((_, j) => j !== i))} aria-label={`Remove question ${f.question}`}>
                <Trash2 aria-hidden />
              </Button>
            </div>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => set("faqs", [...state.faqs, { question: "", answer: "" }])} data-testid="business-add-faq">
              <Plus aria-hidden />
              Add a question
            </Button>
          </div>
        </CardContent>
      </Card>

      <div
        className={`${dirty || Object.keys(errors).length ? "sticky bottom-4 z-10 shadow-lg" : ""} flex flex-col gap-3 rounded-xl border border-border bg-card/95 p-4 backdrop-blur sm:flex-row sm:items-center sm:justify-between`}
      >
        <p className={Object.keys(errors).length ? "text-sm font-medium text-destructive" : "text-sm text-muted-foreground"} aria-live="polite" data-testid="business-save-status">
          {Object.keys(errors).length ? "Fix the highlighted fields, then save." : dirty ? "You have unsaved changes." : "Everything is saved."}
        </p>
        <div className="flex gap-2">
          <Button type="button" variant="outline" disabled={!dirty || save.isPending} onClick={() => (setState(initial), setErrors({}))}>
            Discard
          </Button>
          <Button type="submit" disabled={!dirty || save.isPending} data-testid="business-save">
            {save.isPending ? <Spinner /> : null}
            {save.isPending ? "Saving..." : "Save changes"}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** `{field.path: message}`, the first message per field (the shape the route answers with). */
function issuesToErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[issue.path.map(String).join(".") || "body"] ??= issue.message;
  return out;
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function DayRow({ day, ranges, onChange, errors }: { day: Weekday; ranges: Range[]; onChange: (ranges: Range[]) => void; errors: Record<string, string> }) {
  const name = WEEKDAY_NAMES[day];
  const open = ranges.length > 0;
  const error = ranges.map((_, i) => errors[`weeklyHours.${day}.${i}.open`] ?? errors[`weeklyHours.${day}.${i}.close`]).find(Boolean) ?? errors[`weeklyHours.${day}`];
  const setRange = (i: number, patch: Partial<Range>) => onChange(ranges.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <li className="flex flex-col gap-2 py-3" data-testid={`business-day-${day}`}>
      <div className="flex flex-wrap items-start gap-3">
        <span className="w-24 pt-2 text-sm font-medium">{name}</span>
        <div className="pt-2">
          <Switch checked={open} onCheckedChange={(checked) => onChange(checked ? [{ open: "09:00", close: "17:00" }] : [])} aria-label={`Open on ${name}`} />
        </div>
        {open ? (
          <div className="flex flex-col gap-2">
            {ranges.map((r, i) => (
              <div key={i} className="flex items-center gap-2">
                <Input type="time" className="w-28" value={toInputTime(r.open)} onChange={(e) => setRange(i, { open: e.target.value })} aria-label={`${name} opens at${i ? ` (${i + 1})` : ""}`} aria-invalid={error ? true : undefined} />
                <span className="text-sm text-muted-foreground">to</span>
                <Input type="time" className="w-28" value={toInputTime(r.close)} onChange={(e) => setRange(i, { close: e.target.value })} aria-label={`${name} closes at${i ? ` (${i + 1})` : ""}`} aria-invalid={error ? true : undefined} />
                {ranges.length > 1 ? (
                  <Button type="button" variant="ghost" size="icon" onClick={() => onChange(ranges.filter((_, j) => j !== i))} aria-label={`Remove ${name} hours ${i + 1}`}>
                    <X aria-hidden />
                  </Button>
                ) : null}
              </div>
            ))}
            {ranges.length < 4 ? (
              <Button
                type="button"
                variant="link"
                size="sm"
                className="h-auto self-start px-0"
                onClick={() => {
                  const last = ranges[ranges.length - 1];
                  onChange([...ranges, { open: last.close < "22:00" ? addHour(last.close) : "20:00", close: last.close < "22:00" ? addHour(addHour(last.close)) : "21:00" }]);
                }}
              >
                <Plus aria-hidden />
                Add hours (e.g. after lunch)
              </Button>
            ) : null}
          </div>
        ) : (
          <span className="pt-2 text-sm text-muted-foreground">Closed</span>
        )}
      </div>
      <FieldError id={`business-day-${day}-error`} message={error} className="sm:pl-36" />
    </li>
  );
}

function addHour(clock: string): string {
  const [h, m] = clock.split(":").map(Number);
  return `${String(Math.min(23, h + 1)).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
