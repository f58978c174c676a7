/**
 * The pure parts of `npm run eval:calls` (scripts/eval-calls.ts): the YAML contract's types, the
 * checks that make a script malformed, local times in a business's zone, and the task and
 * appointment matchers the grading uses. Kept apart so they are tested without a database.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";

const RealDate = Date;

export type Range = number | { min?: number; max?: number };

/** One appointment as graded: local times in the business's time zone. */
export type AppointmentMatcher = {
  /** "YYYY-MM-DDTHH:MM" local, or a list of acceptable ones. */
  at?: string | string[];
  /** "YYYY-MM-DD" local, or a list of acceptable days. */
  on?: string | string[];
  /** Local "HH:MM": the start is at or after `from` and before `until`. */
  from?: string;
  until?: string;
  service?: string;
  name?: string;
  phone?: string;
  status?: "confirmed" | "held" | "cancelled";
  /** appointmentsInclude only: exactly this many rows match (default: at least one). */
  count?: number;
};

export type TaskMatcher = {
  kind?: string;
  urgent?: boolean;
  titleContains?: string;
  /** In the title or the detail. */
  textContains?: string;
  /** The number to call back: the task's contact number, or those digits in its title or detail. */
  phone?: string;
  nameContains?: string;
  /** Exactly this many tasks match (default: at least one). */
  count?: number;
};

export type Expect = {
  tasks?: number | TaskMatcher | TaskMatcher[];
  appointments?: number | AppointmentMatcher[];
  appointmentsInclude?: AppointmentMatcher[];
  contacts?: number;
  creditsSpent?: Range;
  smsTo?: string[];
  noSmsTo?: string[];
  textsTo?: string[];
  noTextsTo?: string[];
  textContains?: string[];
  textNotContains?: string[];
  transfer?: boolean;
  transferTo?: string;
  outcome?: string;
  replyContains?: string[];
  replyNotContains?: string[];
  replyMatches?: string[];
  replyNotMatches?: string[];
  replyLanguage?: string;
  greetingContains?: string;
  knowledgeGaps?: Range;
  textBack?: "sent" | "opted_out" | "disabled" | "none";
  memory?: { name?: string | null; forgotten?: boolean };
  optedOut?: boolean;
  endedByAssistant?: boolean;
  noInventedPrices?: boolean;
};

/** What the caller does at one prompt (voice) or one text (sms). A plain string is `say`. */
export type Turn = string | { say?: string; digits?: string; hangUp?: boolean; replyMatches?: string[]; replyNotMatches?: string[] };

export type Conversation = { channel?: "voice" | "sms"; caller?: string; callerName?: string; turns: Turn[] };

export type CallerScript = {
  name: string;
  /** A file of eval/businesses/ (without .yaml): its `profile` and `number`, under the script's own. */
  business?: string;
  profile?: Record<string, unknown>;
  now?: string;
  caller?: string;
  /** Twilio's CallerName (CNAM) for the calls. */
  callerName?: string;
  /** Twilio's FromState, sent with every webhook (e.g. CA). */
  fromState?: string;
  channel?: "voice" | "sms";
  turns: Turn[];
  expect: Expect;
  /** Earlier conversations, run first and not graded. */
  before?: Conversation[];
  /** Callers at the same moment, graded with the rest (their replies count as replies). */
  race?: Conversation[];
  /** Rows that exist before the call: appointments (`at` local, `service`, `name`, `phone`) and contacts (`name`, `phone`). */
  existing?: {
    appointments?: { at: string; service?: string; name: string; phone?: string; status?: "confirmed" | "cancelled" }[];
    contacts?: { name?: string; phone?: string }[];
  };
  number?: { forwardTo?: string | null; textBack?: boolean; textBackTemplate?: string };
  transferAnswered?: boolean;
  voicemail?: string;
};

export type Loaded = { set: string; file: string; script: CallerScript };
export type Result = { set: string; file: string; name: string; passed: boolean; errors: string[]; ms: number; transcript?: string[] };

export const CALLS = path.join(process.cwd(), "eval", "calls");
export const BUSINESSES = path.join(process.cwd(), "eval", "businesses");

// ─── Local times in a time zone ───────────────────────────────────────────────────────────────
export function localParts(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new RealDate(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { y: get("year"), m: get("month"), d: get("day"), h: get("hour") % 24, mi: get("minute"), s: get("second") };
}
/** "YYYY-MM-DDTHH:MM" in the zone. */
export function toLocal(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.y}-${two(p.m)}-${two(p.d)}T${two(p.h)}:${two(p.mi)}`;
}
/** The instant of a local "YYYY-MM-DDTHH:MM" in the zone. */
export function fromLocal(local: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw new Error(`not a local time "YYYY-MM-DDTHH:MM": ${local}`);
  const guess = RealDate.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const offsetAt = (ms: number) => {
    const p = localParts(ms, timeZone);
    return RealDate.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - ms;
  };
  let ms = guess - offsetAt(guess);
  const again = offsetAt(ms);
  if (guess - again !== ms) ms = guess - again;
  return ms;
}

// ─── Loading and checking scripts ─────────────────────────────────────────────────────────────
export const SCRIPT_KEYS = new Set(["name", "business", "profile", "now", "caller", "callerName", "fromState", "channel", "turns", "expect", "before", "race", "existing", "number", "transferAnswered", "voicemail"]);
export const EXPECT_KEYS = new Set([
  "tasks", "appointments", "appointmentsInclude", "contacts", "creditsSpent", "smsTo", "noSmsTo", "textsTo", "noTextsTo", "textContains", "textNotContains",
  "transfer", "transferTo", "outcome", "replyContains", "replyNotContains", "replyMatches", "replyNotMatches", "replyLanguage", "greetingContains",
  "knowledgeGaps", "textBack", "memory", "optedOut", "endedByAssistant", "noInventedPrices",
]);
export const APPT_KEYS = new Set(["at", "on", "from", "until", "service", "name", "phone", "status", "count"]);
export const TASK_KEYS = new Set(["kind", "urgent", "titleContains", "textContains", "phone", "nameContains", "count"]);

export function loadBusiness(name: string): { profile?: Record<string, unknown>; number?: CallerScript["number"] } {
  const file = path.join(BUSINESSES, `${name}.yaml`);
  if (!fs.existsSync(file)) throw new Error(`business "${name}": no file eval/businesses/${name}.yaml`);
  return parseYaml(fs.readFileSync(file, "utf8")) ?? {};
}

export function loadSet(set: string): Loaded[] {
  const dir = path.join(CALLS, set);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
    .sort()
    .map((f) => ({ set, file: path.join(set, f), script: parseYaml(fs.readFileSync(path.join(dir, f), "utf8")) as CallerScript }));
}

export function validate(file: string, s: CallerScript): string[] {
  const problems: string[] = [];
  const bad = (msg: string) => problems.push(`${file}: ${msg}`);
  if (!s || typeof s !== "object") return [`${file}: not a YAML map`];
  for (const k of Object.keys(s)) if (!SCRIPT_KEYS.has(k)) bad(`unknown key "${k}"`);
  if (typeof s.name !== "string" || !s.name) bad("name is required");
  if (!Array.isArray(s.turns) && !Array.isArray(s.race)) bad("turns must be a list of what the caller says");
  if (!s.expect || typeof s.expect !== "object") bad("expect is required");
  const e164 = (v: unknown) => typeof v === "string" && /^\+[1-9]\d{6,14}$/.test(v);
  if (s.caller && !e164(s.caller)) bad("caller must be E.164, e.g. +15555550123");
  if (s.channel && s.channel !== "voice" && s.channel !== "sms") bad("channel must be voice or sms");
  if (s.now && Number.isNaN(RealDate.parse(s.now))) bad("now must be an ISO date and time");
  if (s.business) {
    try {
      loadBusiness(s.business);
    } catch (error) {
      bad((error as Error).message);
    }
  }
  const checkTurns = (turns: unknown, where: string) => {
    if (turns === undefined) return;
    if (!Array.isArray(turns)) return bad(`${where} must be a list`);
    for (const t of turns) {
      if (typeof t === "string") continue;
      if (!t || typeof t !== "object") bad(`${where}: a turn is a string or a map`);
      else {
        const turn = t as Record<string, unknown>;
        for (const k of Object.keys(turn)) if (!["say", "digits", "hangUp", "replyMatches", "replyNotMatches"].includes(k)) bad(`${where}: unknown turn key "${k}"`);
        if (turn.digits !== undefined && !/^[0-9*#w]+$/.test(String(turn.digits))) bad(`${where}: digits are 0-9 * #`);
        for (const r of [...((turn.replyMatches as string[]) ?? []), ...((turn.replyNotMatches as string[]) ?? [])]) checkRegex(r, where);
      }
    }
  };
  const checkRegex = (r: unknown, where: string) => {
    try {
      new RegExp(String(r), "i");
    } catch {
      bad(`${where}: not a regular expression: ${String(r)}`);
    }
  };
  checkTurns(s.turns, "turns");
  for (const [i, c] of (s.before ?? []).entries()) {
    if (c.caller && !e164(c.caller)) bad(`before[${i}].caller must be E.164`);
    checkTurns(c.turns, `before[${i}].turns`);
  }
  if (s.race !== undefined && !Array.isArray(s.race)) bad("race must be a list of {caller, turns}");
  for (const [i, c] of (s.race ?? []).entries()) {
    if (!e164(c.caller)) bad(`race[${i}].caller must be E.164`);
    checkTurns(c.turns, `race[${i}].turns`);
  }
  for (const a of s.existing?.appointments ?? []) if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(String(a.at)) || !a.name) bad(`existing.appointments: each needs at "YYYY-MM-DDTHH:MM" and name`);
  const e = s.expect;
  if (e && typeof e === "object") {
    for (const k of Object.keys(e)) if (!EXPECT_KEYS.has(k)) bad(`unknown expect key "${k}" (docs/eval.md lists them)`);
    const checkAppt = (list: unknown, key: string) => {
      if (list === undefined || typeof list === "number") return;
      if (!Array.isArray(list)) return bad(`expect.${key} must be a number or a list`);
      for (const a of list) {
        for (const k of Object.keys(a ?? {})) if (!APPT_KEYS.has(k)) bad(`expect.${key}: unknown key "${k}"`);
        for (const at of [a?.at ?? []].flat()) if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(String(at))) bad(`expect.${key}: at must be local "YYYY-MM-DDTHH:MM"`);
        for (const on of [a?.on ?? []].flat()) if (!/^\d{4}-\d{2}-\d{2}$/.test(String(on))) bad(`expect.${key}: on must be "YYYY-MM-DD"`);
      }
    };
    checkAppt(e.appointments, "appointments");
    checkAppt(e.appointmentsInclude, "appointmentsInclude");
    if (e.tasks !== undefined && typeof e.tasks !== "number") for (const t of [e.tasks].flat()) for (const k of Object.keys(t ?? {})) if (!TASK_KEYS.has(k)) bad(`expect.tasks: unknown key "${k}"`);
    for (const r of [...(e.replyMatches ?? []), ...(e.replyNotMatches ?? [])]) checkRegex(r, "expect");
    if (e.replyLanguage && !/^[a-z]{2}$/.test(e.replyLanguage)) bad("expect.replyLanguage is a two-letter code, e.g. es");
  }
  return problems;
}

export const ISO2_TO_FRANC: Record<string, string> = { en: "eng", es: "spa", fr: "fra", de: "deu", pt: "por", it: "ita", zh: "cmn" };
export const digitsOf = (s: string | null | undefined) => (s ?? "").replace(/\D/g, "");
export const inRange = (n: number, r: Range) => (typeof r === "number" ? n === r : (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max));
export const rangeText = (r: Range) => (typeof r === "number" ? String(r) : `${r.min ?? "…"}–${r.max ?? "…"}`);

/** An appointment row as graded. */
export type AppointmentRow = { status: string; startsAt: Date; serviceName: string; customerName: string; customerPhone: string };

/** Whether a row matches: local times in `timeZone`; without `status`, only live (confirmed or held) rows match. */
export function appointmentMatches(r: AppointmentRow, a: AppointmentMatcher, timeZone: string): boolean {
  const local = toLocal(r.startsAt.getTime(), timeZone);
  if (a.status ? r.status !== a.status : !(r.status === "confirmed" || r.status === "held")) return false;
  if (a.at !== undefined && ![a.at].flat().includes(local)) return false;
  if (a.on !== undefined && ![a.on].flat().includes(local.slice(0, 10))) return false;
  if (a.from !== undefined && local.slice(11) < a.from) return false;
  if (a.until !== undefined && local.slice(11) >= a.until) return false;
  if (a.service && !r.serviceName.toLowerCase().includes(a.service.toLowerCase())) return false;
  if (a.name && !r.customerName.toLowerCase().includes(a.name.toLowerCase())) return false;
  if (a.phone && !digitsOf(r.customerPhone).endsWith(digitsOf(a.phone))) return false;
  return true;
}


/** Urgency as the task table records it: an `urgent` flag or a `priority` of urgent/high, whichever the schema has. */
export function isUrgent(t: object): boolean {
  const r = t as Record<string, unknown>;
  if (r.urgent === true || r.isUrgent === true) return true;
  return typeof r.priority === "string" && ["urgent", "high"].includes(r.priority.toLowerCase());
}

export function taskMatches(t: { kind: string; title: string; detail: string; contactNumber: string; contactName: string | null }, want: TaskMatcher): boolean {
  const text = `${t.title}\n${t.detail}`.toLowerCase();
  if (want.kind && t.kind !== want.kind) return false;
  if (want.urgent !== undefined && isUrgent(t) !== want.urgent) return false;
  if (want.titleContains && !t.title.toLowerCase().includes(want.titleContains.toLowerCase())) return false;
  if (want.textContains && !text.includes(want.textContains.toLowerCase())) return false;
  if (want.nameContains && !`${t.contactName ?? ""}\n${text}`.toLowerCase().includes(want.nameContains.toLowerCase())) return false;
  if (want.phone) {
    const d = digitsOf(want.phone);
    const national = d.length === 11 && d.startsWith("1") ? d.slice(1) : d;
    if (!digitsOf(t.contactNumber).endsWith(national) && !digitsOf(text).includes(national)) return false;
  }
  return true;
}
