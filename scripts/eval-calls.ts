/**
 * npm run eval:calls [-- --set dev|held-out] [--only NAME] [--verbose] [--speech] [--report] [--jobs N] [--check]
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
import {
  type AppointmentMatcher,
  appointmentMatches,
  type Loaded,
  type Conversation,
  fromLocal,
  inRange,
  isUrgent,
  ISO2_TO_FRANC,
  loadBusiness,
  loadSet,
  rangeText,
  type Result,
  taskMatches,
  toLocal,
  type Turn,
  validate,
} from "./eval-calls-grading";

process.env.PGLITE_DATA_DIR = "memory://";
process.env.JOBS_IN_PROCESS = "false";
process.env.PUBLIC_URL ??= "http://localhost:3000";

const SETS = ["dev", "held-out"] as const;
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

// ─── Running scripts (in this process) ────────────────────────────────────────────────────────
async function runScripts(scripts: Loaded[], opts: { speech: boolean; onResult: (r: Result) => void }) {
  const { DOMParser } = await import("@xmldom/xmldom");
  const { and, eq, inArray } = await import("drizzle-orm");
  const { franc } = await import("franc-min");
  const { getDb, closeDb } = await import("../lib/platform/database");
  const schema = await import("../db/schema");
  const { createOrganization } = await import("../lib/identity/organizations/service");
  const { changeCredits } = await import("../lib/workspace/billing/ledger");
  const { createPhoneNumber, updatePhoneNumber } = await import("../lib/phone/numbers/service");
  const { createService } = await import("../lib/knowledge/services/service");
  const { createServiceInput } = await import("../lib/knowledge/services/schema");
  const { simulatedAccount } = await import("../lib/phone/telephony/account");
  const { twilioSignature } = await import("../lib/phone/telephony/signature");
  const { updateTextBack } = await import("../lib/receptionist/text-back");
  const { runDueJobs } = await import("../lib/platform/jobs/runner");
  const { finishCallJob, processVoicemailJob } = await import("../lib/channels/phone-line/voice/post-call");
  const { SimulatedCall, sendSimulatedSms } = await import("../lib/phone/telephony/simulator/carrier-client");
  const { createFilesystemBlobStore, setBlobStore } = await import("../lib/platform/blob-store");
  const { inProcessFetch: handlerFetch } = await import("../tests/helpers/in-process-carrier");

  if (!opts.speech) {
    // What is graded is the state, not the audio: the offline voice answers with a short silent clip
    // (a busy machine's speech synthesis would otherwise eat the turn's time limit). --speech keeps it.
    const { silenceOfflineSpeech } = await import("../tests/helpers/silent-speech");
    silenceOfflineSpeech();
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
        const apptMatches = (r: (typeof rows)[number], a: AppointmentMatcher) => appointmentMatches(r, a, timeZone);
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
      if (e.consent) {
        const rows = await db.select().from(schema.calls).where(eq(schema.calls.organizationId, org.id));
        const last = rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()).at(-1);
        const [consent] = last ? await db.select().from(schema.callConsents).where(eq(schema.callConsents.callId, last.id)) : [];
        if (!consent) errors.push("consent: the call has no consent record");
        else {
          if (e.consent.strict !== undefined && consent.strict !== e.consent.strict) errors.push(`consent.strict: wanted ${e.consent.strict}, got ${consent.strict}`);
          if (e.consent.noticeContains && !(consent.noticeText ?? "").toLowerCase().includes(e.consent.noticeContains.toLowerCase())) errors.push(`consent.noticeContains: "${e.consent.noticeContains}" not in "${consent.noticeText}"`);
          const holds = consent.noticeText ? Boolean(consent.stayedOnAt) : !consent.required;
          if (e.consent.holds !== undefined && holds !== e.consent.holds) errors.push(`consent.holds: wanted ${e.consent.holds}, got ${holds}`);
        }
      }
      if (e.erasedVia) {
        const certificates = await db.select().from(schema.erasureCertificates).where(eq(schema.erasureCertificates.organizationId, org.id));
        if (!certificates.some((c) => c.requestedVia === e.erasedVia)) errors.push(`erasedVia: no erasure certificate requested via ${e.erasedVia} (${certificates.map((c) => c.requestedVia).join(", ") || "none"})`);
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
    opts.onResult({ set, file, name: script.name, passed: errors.length === 0, errors, ms: Math.round(performance.now() - started), transcript });
  }
  setClock(undefined);
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
}

// ─── Entry: one process, or --jobs N worker processes ─────────────────────────────────────────
function printResult(r: Result, verbose: boolean) {
  console.log(`${r.passed ? "✓" : "✗"} [${r.set}] ${r.name}  ${r.ms} ms`);
  if (verbose || !r.passed) for (const err of r.errors) console.log(`    ${err}`);
  if (verbose) for (const line of r.transcript ?? []) console.log(`      ${line}`);
}

async function main() {
  const argv = process.argv.slice(2);
  const arg = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : null);
  const only = arg("--only");
  const setArg = arg("--set");
  const verbose = argv.includes("--verbose");
  const speech = argv.includes("--speech");
  const report = argv.includes("--report");
  const jobs = Math.max(1, Number(arg("--jobs") ?? Math.min(2, os.cpus().length)) || 1);
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
  if (argv.includes("--check")) {
    for (const set of sets) console.log(`${set}: ${scripts.filter((s) => s.set === set).length} callers, well-formed`);
    process.exit(0);
  }
  if (only) {
    // "a|b": callers matching any of the names (one process start for a handful of callers).
    const names = only.split("|").filter(Boolean);
    scripts = scripts.filter(({ file, script }) => names.some((n) => script.name === n || script.name.includes(n) || path.basename(file).replace(/\.ya?ml$/, "").includes(n)));
  }

  if (workerFiles) {
    // A worker: results as JSON lines for the parent.
    await runScripts(scripts, { speech, onResult: (r) => process.stdout.write(`@@result ${JSON.stringify(r)}\n`) });
    process.exit(0);
  }

  const started = performance.now();
  const results: Result[] = [];
  if (jobs === 1 || scripts.length < 2) {
    await runScripts(scripts, {
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
  // What fails most, by grading key (a caller can fail several): where the engine work is.
  const byKey = new Map<string, number>();
  for (const r of results) for (const key of new Set(r.errors.map((e) => /^[\w.]+/.exec(e)?.[0] ?? "other"))) byKey.set(key, (byKey.get(key) ?? 0) + 1);
  if (byKey.size) console.log(`failing: ${[...byKey].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}`);
  console.log(`${results.length} callers in ${seconds} s${jobs > 1 && scripts.length > 1 ? ` (${Math.min(jobs, scripts.length)} processes)` : ""}`);
  const allPassed = results.every((r) => r.passed);
  process.exit(report || allPassed ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
