/**
 * npm run eval:calls [-- --set dev|held-out] [--only NAME] [--verbose] [--speech] [--report] [--jobs N]
 *
 * The scripted-caller suite (docs/eval.md): every eval/calls/{dev,held-out}/*.yaml is one caller
 * calling (or texting) a fresh organization built from the script's business profile, through the
 * simulated carrier and the real webhooks in this process, on an embedded database that keeps
 * nothing. After the post-call jobs, the script is graded by the final state — tasks, appointments,
 * contacts, the ledger, texts sent, transfers, knowledge gaps, opt-outs, and only where nothing else
 * shows it, what the assistant said — and both pass rates are printed (dev and held-out).
 *
 * Exit code: 2 when a script is malformed; otherwise 1 when a caller failed, 0 when all passed —
 * and always 0 with --report (CI runs it as a report while the engine is rewritten).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";

process.env.PGLITE_DATA_DIR = "memory://";
process.env.JOBS_IN_PROCESS = "false";
process.env.PUBLIC_URL ??= "http://localhost:3000";

type Range = number | { min?: number; max?: number };

/** One appointment as graded: local times in the business's time zone. */
type AppointmentMatcher = {
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

type TaskMatcher = {
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

type Expect = {
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
type Turn = string | { say?: string; digits?: string; hangUp?: boolean; replyMatches?: string[]; replyNotMatches?: string[] };

type Conversation = { channel?: "voice" | "sms"; caller?: string; callerName?: string; turns: Turn[] };

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

type Loaded = { set: string; file: string; script: CallerScript };
type Result = { set: string; file: string; name: string; passed: boolean; errors: string[]; ms: number; transcript?: string[] };

const SETS = ["dev", "held-out"] as const;
const ROOT = process.cwd();
const CALLS = path.join(ROOT, "eval", "calls");
const BUSINESSES = path.join(ROOT, "eval", "businesses");
const DTMF = "\u0001DTMF:";

// ─── A fixed clock: Date reads the script's `now`, advancing with real time ───────────────────
const RealDate = Date;
let clockOffset = 0;
function setClock(iso: string | undefined) {
  clockOffset = iso ? RealDate.parse(iso) - RealDate.now() : 0;
}
class FixedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + clockOffset);
    else super(...(args as [string]));
  }
  static now() {
    return RealDate.now() + clockOffset;
  }
}
globalThis.Date = FixedDate as DateConstructor;

// ─── Local times in a time zone ───────────────────────────────────────────────────────────────
function localParts(ms: number, timeZone: string) {
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
const SCRIPT_KEYS = new Set(["name", "business", "profile", "now", "caller", "callerName", "fromState", "channel", "turns", "expect", "before", "race", "existing", "number", "transferAnswered", "voicemail"]);
const EXPECT_KEYS = new Set([
  "tasks", "appointments", "appointmentsInclude", "contacts", "creditsSpent", "smsTo", "noSmsTo", "textsTo", "noTextsTo", "textContains", "textNotContains",
  "transfer", "transferTo", "outcome", "replyContains", "replyNotContains", "replyMatches", "replyNotMatches", "replyLanguage", "greetingContains",
  "knowledgeGaps", "textBack", "memory", "optedOut", "endedByAssistant", "noInventedPrices",
]);
const APPT_KEYS = new Set(["at", "on", "from", "until", "service", "name", "phone", "status", "count"]);
const TASK_KEYS = new Set(["kind", "urgent", "titleContains", "textContains", "phone", "nameContains", "count"]);

function loadBusiness(name: string): { profile?: Record<string, unknown>; number?: CallerScript["number"] } {
  const file = path.join(BUSINESSES, `${name}.yaml`);
  if (!fs.existsSync(file)) throw new Error(`business "${name}": no file eval/businesses/${name}.yaml`);
  return parseYaml(fs.readFileSync(file, "utf8")) ?? {};
}

function loadSet(set: string): Loaded[] {
  const dir = path.join(CALLS, set);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
    .sort()
    .map((f) => ({ set, file: path.join(set, f), script: parseYaml(fs.readFileSync(path.join(dir, f), "utf8")) as CallerScript }));
}

function validate(file: string, s: CallerScript): string[] {
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

/** 0.1 s of 8 kHz 16-bit mono silence. */
function silentWav(): Buffer {
  const samples = 800;
  const b = Buffer.alloc(44 + samples * 2);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write("WAVE", 8);
  b.write("fmt ", 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

const ISO2_TO_FRANC: Record<string, string> = { en: "eng", es: "spa", fr: "fra", de: "deu", pt: "por", it: "ita", zh: "cmn" };
const digitsOf = (s: string | null | undefined) => (s ?? "").replace(/\D/g, "");
const inRange = (n: number, r: Range) => (typeof r === "number" ? n === r : (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max));
const rangeText = (r: Range) => (typeof r === "number" ? String(r) : `${r.min ?? "…"}–${r.max ?? "…"}`);

// ─── Running scripts (in this process) ────────────────────────────────────────────────────────
async function runScripts(scripts: Loaded[], opts: { verbose: boolean; speech: boolean; onResult: (r: Result) => void }) {
  const { DOMParser } = await import("@xmldom/xmldom");
  const { and, eq, inArray } = await import("drizzle-orm");
  const { franc } = await import("franc-min");
  const { getDb, closeDb } = await import("../lib/database");
  const schema = await import("../db/schema");
  const { createOrganization } = await import("../lib/organizations/service");
  const { changeCredits } = await import("../lib/billing/ledger");
  const { createPhoneNumber, updatePhoneNumber } = await import("../lib/phone-numbers/service");
  const { createService } = await import("../lib/services/service");
  const { createServiceInput } = await import("../lib/services/schema");
  const { simulatedAccount } = await import("../lib/telephony/account");
  const { twilioSignature } = await import("../lib/telephony/signature");
  const { updateTextBack } = await import("../lib/receptionist/text-back");
  const { runDueJobs } = await import("../lib/jobs/runner");
  const { finishCallJob, processVoicemailJob } = await import("../lib/telephony/voice/post-call");
  const { SimulatedCall, sendSimulatedSms } = await import("../lib/telephony/simulator/carrier-client");
  const { createFilesystemBlobStore, setBlobStore } = await import("../lib/blob-store");
  const { handlerFetch } = await import("./eval-routes");

  if (!opts.speech) {
    // What is graded is the state, not the audio: the offline voice answers with a short silent clip
    // (a busy machine's speech synthesis would otherwise eat the turn's time limit). --speech keeps it.
    const { offlineTts } = await import("../lib/provider-selection/tts");
    const silent = silentWav();
    Object.assign(offlineTts(), {
      synthesize: async () => ({ audio: silent, contentType: "audio/wav" }),
      synthesizeStream: async function* () {
        yield silent;
      },
    });
  }
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-eval-"));
  setBlobStore(createFilesystemBlobStore(blobDir));
  const db = await getDb();
  const GRANT = 1000;

  for (const { set, file, script } of scripts) {
    setClock(script.now);
    const started = performance.now();
    const errors: string[] = [];
    const transcript: string[] = [];
    try {
      const business = script.business ? loadBusiness(script.business) : {};
      const profile = { ...(business.profile ?? {}), ...(script.profile ?? {}) } as Record<string, unknown>;
      const numberSettings = { ...(business.number ?? {}), ...(script.number ?? {}) };
      const timeZone = typeof profile.timezone === "string" ? profile.timezone : "America/New_York";
      const orgName = typeof profile.name === "string" ? profile.name : script.name;
      const services = Array.isArray(profile.services) && typeof profile.services[0] === "object" ? (profile.services as Record<string, unknown>[]) : [];
      const staff = Array.isArray(profile.staff) ? (profile.staff as string[]) : [];
      delete profile.name;
      delete profile.staff;
      if (services.length) delete profile.services;
      const org = await createOrganization(db, { name: orgName, tier: "pro", businessProfile: profile as never });
      await changeCredits(db, org.id, "grant", GRANT, { reason: "Eval credits", reference: `eval:${org.id}` });
      const serviceRows = [];
      for (const s of services) serviceRows.push(await createService(db, org.id, createServiceInput.parse(s)));
      for (const name of staff) await db.insert(schema.resources).values({ id: crypto.randomUUID(), organizationId: org.id, name, kind: "staff" });
      const [assistant] = await db
        .insert(schema.voiceAssistants)
        .values({ id: crypto.randomUUID(), organizationId: org.id, name: "Riley", instructions: "Take a message when the team is busy." })
        .returning();
      const number = await createPhoneNumber(db, org.id, { friendlyName: "Front desk", isActive: true, mode: "new" });
      await updatePhoneNumber(db, org.id, number.id, { assistantId: assistant.id, ...(numberSettings.forwardTo ? { forwardTo: numberSettings.forwardTo } : {}) });
      if (numberSettings.textBack !== undefined || numberSettings.textBackTemplate) {
        await updateTextBack(db, org.id, number.id, { enabled: numberSettings.textBack, template: numberSettings.textBackTemplate });
      }
      const caller = script.caller ?? "+15555550123";

      // Rows that exist before the call.
      for (const c of script.existing?.contacts ?? []) {
        await db.insert(schema.contacts).values({ id: crypto.randomUUID(), organizationId: org.id, phone: c.phone ?? caller, name: c.name ?? null });
      }
      for (const a of script.existing?.appointments ?? []) {
        const service = serviceRows.find((s) => a.service && s.name.toLowerCase() === a.service.toLowerCase()) ?? serviceRows[0];
        const startsAt = new RealDate(fromLocal(a.at, timeZone));
        const endsAt = new RealDate(startsAt.getTime() + (service?.durationMinutes ?? 60) * 60_000);
        const cancelled = a.status === "cancelled";
        await db.insert(schema.appointments).values({
          id: crypto.randomUUID(),
          organizationId: org.id,
          serviceId: service?.id ?? null,
          serviceName: service?.name ?? a.service ?? "Appointment",
          status: cancelled ? "cancelled" : "confirmed",
          startsAt,
          endsAt,
          blockStart: startsAt,
          blockEnd: endsAt,
          claimedAt: new Date(Date.now() - 86_400_000),
          customerName: a.name,
          customerPhone: a.phone ?? caller,
          source: "manual",
          ...(cancelled ? { cancelledAt: new Date() } : {}),
        });
      }

      const acct = await simulatedAccount(db, org.id);
      const base = process.env.PUBLIC_URL!.replace(/\/$/, "");
      const account = {
        ...acct,
        voiceUrl: `${base}/api/telephony/voice`,
        statusCallbackUrl: `${base}/api/telephony/status`,
        smsUrl: `${base}/api/telephony/sms`,
        recordingsUrl: `${base}/api/telephony/simulator/recordings`,
      };
      // The carrier's requests, with what the simulator cannot send itself: keyed digits (Digits instead
      // of SpeechResult) and the caller's state (FromState), signed again as Twilio signs them.
      const evalFetch: typeof fetch = async (input, init) => {
        const url = String(input);
        const headers = new Headers(init?.headers);
        if (init?.method === "POST" && typeof init.body === "string" && headers.get("x-twilio-signature")) {
          const params = Object.fromEntries(new URLSearchParams(init.body));
          let changed = false;
          if (params.SpeechResult?.startsWith(DTMF)) {
            params.Digits = params.SpeechResult.slice(DTMF.length);
            delete params.SpeechResult;
            delete params.Confidence;
            changed = true;
          }
          if (script.fromState && params.From && !params.FromState) {
            params.FromState = script.fromState;
            changed = true;
          }
          if (changed) {
            headers.set("x-twilio-signature", twilioSignature(account.authToken, url, params));
            return handlerFetch(input, { ...init, headers, body: new URLSearchParams(params).toString() });
          }
        }
        return handlerFetch(input, init);
      };
      const transport = { fetch: evalFetch, parseXml: (xml: string) => new DOMParser().parseFromString(xml, "text/xml") as never, now: () => performance.now() };

      const replies: string[] = [];
      const turnChecks: { turn: Exclude<Turn, string>; reply: string | null }[] = [];
      const dialled: string[] = [];
      let greeting = "";
      let listensAfterTurns = 0;

      const converse = async (conv: Conversation, record: boolean) => {
        const from = conv.caller ?? caller;
        const channel = conv.channel ?? script.channel ?? "voice";
        if (channel === "sms") {
          for (const t of conv.turns) {
            const body = typeof t === "string" ? t : (t.say ?? "");
            const res = await sendSimulatedSms(account, transport, { from, to: number.phoneNumber, body });
            if (!record) continue;
            replies.push(...res.replies);
            transcript.push(`caller(${from}): ${body}`, ...res.replies.map((r) => `assistant: ${r}`));
            if (typeof t !== "string" && (t.replyMatches || t.replyNotMatches)) turnChecks.push({ turn: t, reply: res.replies.join("\n") });
          }
          return;
        }
        const lines = [...conv.turns];
        const spoken: { turn: Exclude<Turn, string>; text: string }[] = [];
        const call: InstanceType<typeof SimulatedCall> = new SimulatedCall(
          account,
          transport,
          {
            async play() {},
            async listen() {
              const t = lines.shift();
              if (t === undefined) {
                if (record) listensAfterTurns += 1;
                return "";
              }
              if (typeof t === "string") return t;
              if (t.hangUp) {
                call.hangUp();
                return "";
              }
              if (t.digits !== undefined) return `${DTMF}${t.digits}`;
              if (t.replyMatches || t.replyNotMatches) spoken.push({ turn: t, text: (t.say ?? "").trim() });
              return t.say ?? "";
            },
            async dial(to) {
              if (record) dialled.push(to);
              return script.transferAnswered ? "completed" : "no-answer";
            },
            async record() {
              return script.voicemail ? { text: script.voicemail } : null;
            },
            onEvent() {},
          },
          { from, to: number.phoneNumber, ...((conv.callerName ?? script.callerName) ? { callerName: conv.callerName ?? script.callerName } : {}) },
        );
        await call.start().catch((error) => {
          if (!call.signal.aborted) throw error;
        });
        const [row] = await db.select().from(schema.calls).where(eq(schema.calls.providerCallSid, call.callSid));
        const entries = row?.transcript ?? [];
        let first = true;
        for (const t of entries) {
          if (record) transcript.push(`${t.speaker === "assistant" ? "assistant" : `${t.speaker}(${from})`}: ${t.text}`);
          if (t.speaker !== "assistant") continue;
          if (first && record && !greeting) greeting = t.text;
          else if (record) replies.push(t.text);
          first = false;
        }
        // The reply to a turn: what the assistant said after the caller's entry with that text.
        for (const s of spoken) {
          const i = entries.findIndex((t) => t.speaker === "caller" && t.text.trim().toLowerCase() === s.text.toLowerCase());
          if (i < 0) {
            turnChecks.push({ turn: s.turn, reply: null });
            continue;
          }
          const after: string[] = [];
          for (const t of entries.slice(i + 1)) {
            if (t.speaker === "caller") break;
            if (t.speaker === "assistant") after.push(t.text);
          }
          turnChecks.push({ turn: s.turn, reply: after.join("\n") });
        }
        await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });
        await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });
      };

      for (const earlier of script.before ?? []) await converse(earlier, false);
      // Texts sent during the `before` turns (a STOP's carrier-required confirmation, say) are not graded.
      const sentBefore = new Set(
        (await db.select({ id: schema.messages.id }).from(schema.messages).where(and(eq(schema.messages.organizationId, org.id), eq(schema.messages.direction, "outbound")))).map((m) => m.id),
      );
      const balanceBefore = (await db.select({ b: schema.organizations.creditBalance }).from(schema.organizations).where(eq(schema.organizations.id, org.id)))[0].b;
      if (script.race?.length) await Promise.all(script.race.map((c) => converse(c, true)));
      if (script.turns?.length) await converse({ turns: script.turns, channel: script.channel, caller }, true);

      if (opts.verbose) console.log(`    greeting: ${greeting}\n${transcript.map((r) => `    ${r}`).join("\n")}`);
      // ─── Grade the final state ──────────────────────────────────────────────────────────────
      const e = script.expect;
      const orgTasks = await db.select().from(schema.tasks).where(eq(schema.tasks.organizationId, org.id));
      const taskLine = (t: (typeof orgTasks)[number]) => `${t.kind}${isUrgent(t) ? " (urgent)" : ""}: ${t.title} [${t.contactName ?? "no name"}, ${t.contactNumber}]`;
      if (e.tasks !== undefined) {
        if (typeof e.tasks === "number") {
          if (orgTasks.length !== e.tasks) errors.push(`tasks: wanted ${e.tasks}, found ${orgTasks.length} (${orgTasks.map(taskLine).join("; ") || "none"})`);
        } else {
          for (const want of [e.tasks].flat()) {
            const matching = orgTasks.filter((t) => taskMatches(t, want));
            const ok = want.count === undefined ? matching.length >= 1 : matching.length === want.count;
            if (!ok) errors.push(`tasks: wanted ${want.count ?? "at least 1"} matching ${JSON.stringify(want)}, found ${matching.length} (${orgTasks.map(taskLine).join("; ") || "no tasks"})`);
          }
        }
      }
      if (e.appointments !== undefined || e.appointmentsInclude !== undefined) {
        const rows = await db.select().from(schema.appointments).where(eq(schema.appointments.organizationId, org.id));
        const live = rows.filter((r) => r.status === "confirmed" || r.status === "held");
        const describe = (list: typeof rows) => list.map((r) => `${r.status} ${r.serviceName} ${toLocal(r.startsAt.getTime(), timeZone)} ${r.customerName}`).join("; ") || "none";
        const apptMatches = (r: (typeof rows)[number], a: AppointmentMatcher) => {
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
        };
        if (typeof e.appointments === "number") {
          if (live.length !== e.appointments) errors.push(`appointments: wanted ${e.appointments} booked, found ${live.length} (${describe(rows)})`);
        } else if (Array.isArray(e.appointments)) {
          // The exact list of live (confirmed or held) ones; entries with status: cancelled must exist as cancelled.
          const wantLive = e.appointments.filter((a) => a.status !== "cancelled");
          const wantCancelled = e.appointments.filter((a) => a.status === "cancelled");
          const unused = [...live];
          for (const a of wantLive) {
            const i = unused.findIndex((r) => apptMatches(r, a));
            if (i < 0) errors.push(`appointments: none booked matching ${JSON.stringify(a)} (${describe(rows)})`);
            else unused.splice(i, 1);
          }
          if (unused.length) errors.push(`appointments: booked but not expected: ${describe(unused)}`);
          for (const a of wantCancelled) if (!rows.some((r) => apptMatches(r, a))) errors.push(`appointments: none cancelled matching ${JSON.stringify(a)} (${describe(rows)})`);
        }
        for (const a of e.appointmentsInclude ?? []) {
          const n = rows.filter((r) => apptMatches(r, a)).length;
          if (a.count === undefined ? n < 1 : n !== a.count) errors.push(`appointmentsInclude: wanted ${a.count ?? "at least 1"} matching ${JSON.stringify(a)}, found ${n} (${describe(rows)})`);
        }
      }
      if (e.contacts !== undefined) {
        const rows = await db.select().from(schema.contacts).where(eq(schema.contacts.organizationId, org.id));
        if (rows.length !== e.contacts) errors.push(`contacts: wanted ${e.contacts}, found ${rows.length} (${rows.map((c) => `${c.name ?? "no name"} ${c.phone}`).join("; ")})`);
      }
      if (e.creditsSpent !== undefined) {
        const after = (await db.select({ b: schema.organizations.creditBalance }).from(schema.organizations).where(eq(schema.organizations.id, org.id)))[0].b;
        const spent = balanceBefore - after;
        if (!inRange(spent, e.creditsSpent)) errors.push(`creditsSpent: wanted ${rangeText(e.creditsSpent)}, spent ${spent}`);
      }
      const outbound = (await db.select().from(schema.messages).where(and(eq(schema.messages.organizationId, org.id), eq(schema.messages.direction, "outbound")))).filter(
        (m) => !sentBefore.has(m.id) && m.status !== "failed",
      );
      const sentTo = new Set(outbound.map((m) => m.toNumber));
      for (const to of [...(e.smsTo ?? []), ...(e.textsTo ?? [])]) if (!sentTo.has(to)) errors.push(`textsTo: no text went to ${to}`);
      for (const to of [...(e.noSmsTo ?? []), ...(e.noTextsTo ?? [])]) if (sentTo.has(to)) errors.push(`noTextsTo: a text went to ${to}: ${outbound.filter((m) => m.toNumber === to).map((m) => `"${m.body}"`).join(", ")}`);
      for (const s of e.textContains ?? []) if (!outbound.some((m) => m.body.toLowerCase().includes(s.toLowerCase()))) errors.push(`textContains: no text said "${s}" (${outbound.map((m) => `"${m.body}"`).join(", ") || "no texts"})`);
      for (const s of e.textNotContains ?? []) for (const m of outbound) if (m.body.toLowerCase().includes(s.toLowerCase())) errors.push(`textNotContains: a text said "${s}": "${m.body}"`);
      if (e.textBack) {
        const textBacks = outbound.filter((m) => m.intent === "text_back");
        const follow = await db.select().from(schema.callFollowUps).where(eq(schema.callFollowUps.organizationId, org.id));
        const last = follow.at(-1)?.textBack ?? "none";
        if (e.textBack === "sent" && !textBacks.length) errors.push(`textBack: wanted one sent, got ${last}`);
        if (e.textBack !== "sent" && textBacks.length) errors.push(`textBack: wanted ${e.textBack}, but one was sent`);
        if (e.textBack !== "sent" && e.textBack !== "none" && !follow.some((f) => f.textBack === e.textBack)) errors.push(`textBack: wanted ${e.textBack}, got ${last}`);
      }
      if (e.transfer !== undefined && e.transfer !== dialled.length > 0) errors.push(`transfer: wanted ${e.transfer}, got ${dialled.length > 0}${dialled.length ? ` (dialled ${dialled.join(", ")})` : ""}`);
      if (e.transferTo !== undefined && !dialled.includes(e.transferTo)) errors.push(`transferTo: wanted a transfer to ${e.transferTo}, dialled ${dialled.join(", ") || "nobody"}`);
      if (e.outcome) {
        const rows = await db.select().from(schema.calls).where(eq(schema.calls.organizationId, org.id));
        const last = rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()).at(-1);
        if (last?.outcome !== e.outcome) errors.push(`outcome: wanted ${e.outcome}, got ${last?.outcome ?? "no call"}`);
      }
      const said = replies.join("\n").toLowerCase();
      for (const s of e.replyContains ?? []) if (!said.includes(s.toLowerCase())) errors.push(`replyContains: "${s}" not in the replies`);
      for (const s of e.replyNotContains ?? []) if (said.includes(s.toLowerCase())) errors.push(`replyNotContains: "${s}" was said`);
      for (const r of e.replyMatches ?? []) if (!new RegExp(r, "i").test(said)) errors.push(`replyMatches: /${r}/ not in the replies`);
      for (const r of e.replyNotMatches ?? []) {
        const m = new RegExp(r, "i").exec(said);
        if (m) errors.push(`replyNotMatches: /${r}/ was said ("${m[0]}")`);
      }
      for (const { turn, reply } of turnChecks) {
        const where = typeof turn.say === "string" ? `after "${turn.say}"` : "after a turn";
        if (reply === null) {
          errors.push(`turn ${where}: the caller's words are not in the transcript`);
          continue;
        }
        for (const r of turn.replyMatches ?? []) if (!new RegExp(r, "i").test(reply)) errors.push(`turn ${where}: /${r}/ not in the reply "${reply}"`);
        for (const r of turn.replyNotMatches ?? []) if (new RegExp(r, "i").test(reply)) errors.push(`turn ${where}: /${r}/ was in the reply "${reply}"`);
      }
      if (e.replyLanguage) {
        const want = ISO2_TO_FRANC[e.replyLanguage] ?? e.replyLanguage;
        const got = franc(replies.join(" "), { minLength: 10 });
        if (got !== want) errors.push(`replyLanguage: wanted ${e.replyLanguage} (${want}), the replies read as ${got}`);
      }
      if (e.greetingContains && !greeting.toLowerCase().includes(e.greetingContains.toLowerCase())) errors.push(`greetingContains: "${e.greetingContains}" not in "${greeting}"`);
      if (e.knowledgeGaps !== undefined) {
        const gaps = await db.select().from(schema.knowledgeGaps).where(eq(schema.knowledgeGaps.organizationId, org.id));
        if (!inRange(gaps.length, e.knowledgeGaps)) errors.push(`knowledgeGaps: wanted ${rangeText(e.knowledgeGaps)}, found ${gaps.length}`);
      }
      if (e.memory) {
        const [contact] = await db.select().from(schema.contacts).where(and(eq(schema.contacts.organizationId, org.id), eq(schema.contacts.phone, caller)));
        if (e.memory.name !== undefined && (contact?.name ?? null) !== e.memory.name) errors.push(`memory.name: wanted ${e.memory.name}, got ${contact?.name ?? null}`);
        if (e.memory.forgotten !== undefined && Boolean(contact?.forgottenAt) !== e.memory.forgotten) errors.push(`memory.forgotten: wanted ${e.memory.forgotten}`);
      }
      if (e.optedOut !== undefined) {
        const rows = await db.select().from(schema.smsOptOuts).where(and(eq(schema.smsOptOuts.organizationId, org.id), inArray(schema.smsOptOuts.phone, [caller])));
        if (rows.length > 0 !== e.optedOut) errors.push(`optedOut: wanted ${e.optedOut}, got ${rows.length > 0}`);
      }
      if (e.endedByAssistant !== undefined && (listensAfterTurns === 0) !== e.endedByAssistant) {
        errors.push(`endedByAssistant: wanted ${e.endedByAssistant}; the assistant ${listensAfterTurns ? `listened ${listensAfterTurns} more time(s) after the caller's last turn` : "ended the call"}`);
      }
      if (e.noInventedPrices) {
        // Every amount of money the assistant said must be one the business entered.
        const known = JSON.stringify([profile, services]).toLowerCase();
        for (const amount of said.match(/\$\s?\d+(?:[.,]\d+)?/g) ?? []) {
          const digits = amount.replace(/[$\s]/g, "");
          const cents = String(Math.round(Number(digits.replace(",", "")) * 100));
          if (!known.includes(digits) && !known.includes(cents)) errors.push(`noInventedPrices: said ${amount}, which the profile does not have`);
        }
      }
    } catch (error) {
      errors.push(`crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    opts.onResult({ set, file, name: script.name, passed: errors.length === 0, errors, ms: Math.round(performance.now() - started), transcript: errors.length ? transcript : undefined });
  }
  setClock(undefined);
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
}

/** Urgency as the task table records it: an `urgent` flag or a `priority` of urgent/high, whichever the schema has. */
function isUrgent(t: object): boolean {
  const r = t as Record<string, unknown>;
  if (r.urgent === true || r.isUrgent === true) return true;
  return typeof r.priority === "string" && ["urgent", "high"].includes(r.priority.toLowerCase());
}

function taskMatches(t: { kind: string; title: string; detail: string; contactNumber: string; contactName: string | null }, want: TaskMatcher): boolean {
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

// ─── Entry: one process, or --jobs N worker processes ─────────────────────────────────────────
function printResult(r: Result, verbose: boolean) {
  console.log(`${r.passed ? "✓" : "✗"} [${r.set}] ${r.name}  ${r.ms} ms`);
  if (verbose || !r.passed) for (const err of r.errors) console.log(`    ${err}`);
  if (!r.passed && r.transcript?.length && verbose) for (const line of r.transcript) console.log(`      ${line}`);
}

async function main() {
  const argv = process.argv.slice(2);
  const arg = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : null);
  const only = arg("--only");
  const setArg = arg("--set");
  const verbose = argv.includes("--verbose");
  const speech = argv.includes("--speech");
  const report = argv.includes("--report");
  const jobs = Math.max(1, Number(arg("--jobs") ?? 1) || 1);
  const workerFiles = arg("--worker-files");

  if (setArg && !SETS.includes(setArg as (typeof SETS)[number])) {
    console.error(`--set is dev or held-out, not ${setArg}`);
    process.exit(2);
  }
  const sets = setArg ? [setArg] : [...SETS];
  let scripts = sets.flatMap(loadSet);
  if (workerFiles) {
    const wanted = new Set(workerFiles.split(","));
    scripts = scripts.filter((s) => wanted.has(s.file));
  }
  const invalid = scripts.flatMap(({ file, script }) => validate(file, script));
  const names = new Map<string, string>();
  for (const { file, script } of scripts) {
    if (script?.name && names.has(script.name)) invalid.push(`${file}: name "${script.name}" is also ${names.get(script.name)}'s`);
    names.set(script?.name, file);
  }
  if (invalid.length) {
    console.error(invalid.join("\n"));
    process.exit(2);
  }
  if (only) scripts = scripts.filter(({ file, script }) => script.name === only || script.name.includes(only) || path.basename(file).replace(/\.ya?ml$/, "") === only);

  if (workerFiles) {
    // A worker: results as JSON lines for the parent.
    await runScripts(scripts, { verbose: false, speech, onResult: (r) => process.stdout.write(`@@result ${JSON.stringify(r)}\n`) });
    process.exit(0);
  }

  const started = performance.now();
  const results: Result[] = [];
  if (jobs === 1 || scripts.length < 2) {
    await runScripts(scripts, {
      verbose,
      speech,
      onResult: (r) => {
        results.push(r);
        printResult(r, verbose);
      },
    });
  } else {
    const shards: string[][] = Array.from({ length: Math.min(jobs, scripts.length) }, () => []);
    scripts.forEach((s, i) => shards[i % shards.length].push(s.file));
    await Promise.all(
      shards.map(
        (files) =>
          new Promise<void>((resolve) => {
            const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--worker-files", files.join(","), ...(speech ? ["--speech"] : [])], {
              stdio: ["ignore", "pipe", "inherit"],
              env: process.env,
            });
            let buffer = "";
            child.stdout.on("data", (chunk: Buffer) => {
              buffer += chunk.toString();
              let nl: number;
              while ((nl = buffer.indexOf("\n")) >= 0) {
                const line = buffer.slice(0, nl);
                buffer = buffer.slice(nl + 1);
                if (!line.startsWith("@@result ")) continue;
                const r = JSON.parse(line.slice("@@result ".length)) as Result;
                results.push(r);
                printResult(r, verbose);
              }
            });
            child.on("exit", (code) => {
              const done = new Set(results.map((r) => r.file));
              for (const f of files) if (!done.has(f)) results.push({ set: f.split(path.sep)[0], file: f, name: f, passed: false, errors: [`worker exited (${code}) before this script finished`], ms: 0 });
              resolve();
            });
          }),
      ),
    );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log("");
  for (const set of sets) {
    const mine = results.filter((r) => r.set === set);
    if (!mine.length) continue;
    const passed = mine.filter((r) => r.passed).length;
    console.log(`${set}: ${passed}/${mine.length} (${((passed / mine.length) * 100).toFixed(1)} %)`);
  }
  console.log(`${results.length} callers in ${seconds} s${jobs > 1 ? ` (${jobs} processes)` : ""}`);
  const allPassed = results.every((r) => r.passed);
  process.exit(report || allPassed ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
