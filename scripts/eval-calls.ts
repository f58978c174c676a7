/**
 * npm run eval:calls [-- --only NAME] [--verbose] [--speech]
 *
 * The scripted-caller suite (docs/eval.md): every eval/calls/*.yaml is one caller calling (or
 * texting) a fresh organization built from the script's business profile, through the simulated
 * carrier and the real webhooks in this process, on an embedded database that keeps nothing. After
 * the post-call jobs, the script is graded by the final state — tasks, appointments, texts sent,
 * transfers, knowledge gaps, what the assistant said and did not say — and the pass rate printed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";

process.env.PGLITE_DATA_DIR = "memory://";
process.env.JOBS_IN_PROCESS = "false";
process.env.PUBLIC_URL ??= "http://localhost:3000";

type Expect = {
  tasks?: number | { count?: number; kind?: string; titleContains?: string };
  appointments?: number;
  smsTo?: string[];
  noSmsTo?: string[];
  transfer?: boolean;
  outcome?: string;
  replyContains?: string[];
  replyNotContains?: string[];
  greetingContains?: string;
  knowledgeGaps?: number;
  textBack?: "sent" | "opted_out" | "disabled" | "none";
  memory?: { name?: string | null; forgotten?: boolean };
  noInventedPrices?: boolean;
  /** The (last) call's consent record (docs/compliance.md): the notice's form, whether consent holds. */
  consent?: { strict?: boolean; noticeContains?: string; holds?: boolean };
  /** An erasure certificate requested this way exists (caller_call, caller_text, owner). */
  erasedVia?: string;
};

export type CallerScript = {
  name: string;
  profile?: Record<string, unknown>;
  now?: string;
  caller?: string;
  channel?: "voice" | "sms";
  turns: string[];
  expect: Expect;
  /** Extensions (docs/eval.md): earlier conversations of the same caller, the number's settings, the callee's phone. */
  before?: { channel?: "voice" | "sms"; turns: string[] }[];
  number?: { forwardTo?: string; textBack?: boolean; textBackTemplate?: string };
  transferAnswered?: boolean;
  voicemail?: string;
};

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

function loadScripts(dir: string, only: string | null): { file: string; script: CallerScript }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
    .sort()
    .map((f) => ({ file: f, script: parseYaml(fs.readFileSync(path.join(dir, f), "utf8")) as CallerScript }))
    .filter(({ script }) => !only || script.name === only);
}

function validate(file: string, s: CallerScript): string[] {
  const problems: string[] = [];
  if (!s || typeof s !== "object") return [`${file}: not a YAML map`];
  if (typeof s.name !== "string" || !s.name) problems.push(`${file}: name is required`);
  if (!Array.isArray(s.turns)) problems.push(`${file}: turns must be a list of what the caller says`);
  if (!s.expect || typeof s.expect !== "object") problems.push(`${file}: expect is required`);
  if (s.caller && !/^\+[1-9]\d{6,14}$/.test(s.caller)) problems.push(`${file}: caller must be E.164, e.g. +15555550123`);
  if (s.channel && s.channel !== "voice" && s.channel !== "sms") problems.push(`${file}: channel must be voice or sms`);
  if (s.now && Number.isNaN(Date.parse(s.now))) problems.push(`${file}: now must be an ISO date and time`);
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

async function main() {
  const argv = process.argv.slice(2);
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : null;
  const verbose = argv.includes("--verbose");
  const dir = path.join(process.cwd(), "eval", "calls");
  const scripts = loadScripts(dir, only);
  const invalid = scripts.flatMap(({ file, script }) => validate(file, script));
  if (invalid.length) {
    console.error(invalid.join("\n"));
    process.exit(2);
  }

  const { DOMParser } = await import("@xmldom/xmldom");
  const { and, eq, inArray } = await import("drizzle-orm");
  const { getDb, closeDb } = await import("../lib/database");
  const schema = await import("../db/schema");
  const { createOrganization } = await import("../lib/organizations/service");
  const { changeCredits } = await import("../lib/billing/ledger");
  const { createPhoneNumber, updatePhoneNumber } = await import("../lib/phone-numbers/service");
  const { createService } = await import("../lib/services/service");
  const { createServiceInput } = await import("../lib/services/schema");
  const { simulatedAccount } = await import("../lib/telephony/account");
  const { updateTextBack } = await import("../lib/receptionist/text-back");
  const { runDueJobs } = await import("../lib/jobs/runner");
  const { finishCallJob, processVoicemailJob } = await import("../lib/telephony/voice/post-call");
  const { SimulatedCall, sendSimulatedSms } = await import("../lib/telephony/simulator/carrier-client");
  const { createFilesystemBlobStore, setBlobStore } = await import("../lib/blob-store");
  const { handlerFetch } = await import("./eval-routes");

  if (!argv.includes("--speech")) {
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
  const transport = { fetch: handlerFetch, parseXml: (xml: string) => new DOMParser().parseFromString(xml, "text/xml") as never, now: () => performance.now() };

  let passed = 0;
  const failures: string[] = [];
  for (const { file, script } of scripts) {
    setClock(script.now);
    const started = performance.now();
    const errors: string[] = [];
    try {
      const profile = { ...(script.profile ?? {}) } as Record<string, unknown>;
      const orgName = typeof profile.name === "string" ? profile.name : script.name;
      const services = Array.isArray(profile.services) && typeof profile.services[0] === "object" ? (profile.services as Record<string, unknown>[]) : [];
      delete profile.name;
      if (services.length) delete profile.services;
      const org = await createOrganization(db, { name: orgName, tier: "pro", businessProfile: profile as never });
      await changeCredits(db, org.id, "grant", 1000, { reason: "Eval credits", reference: `eval:${org.id}` });
      for (const s of services) await createService(db, org.id, createServiceInput.parse(s));
      const [assistant] = await db
        .insert(schema.voiceAssistants)
        .values({ id: crypto.randomUUID(), organizationId: org.id, name: "Riley", instructions: "Take a message when the team is busy." })
        .returning();
      const number = await createPhoneNumber(db, org.id, { friendlyName: "Front desk", isActive: true, mode: "new" });
      await updatePhoneNumber(db, org.id, number.id, { assistantId: assistant.id, ...(script.number?.forwardTo ? { forwardTo: script.number.forwardTo } : {}) });
      if (script.number?.textBack !== undefined || script.number?.textBackTemplate) {
        await updateTextBack(db, org.id, number.id, { enabled: script.number?.textBack, template: script.number?.textBackTemplate });
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
      const caller = script.caller ?? "+15555550123";
      const replies: string[] = [];
      let greeting = "";
      let transferred = false;

      const converse = async (channel: "voice" | "sms", turns: string[], record: boolean) => {
        if (channel === "sms") {
          for (const body of turns) {
            const res = await sendSimulatedSms(account, transport, { from: caller, to: number.phoneNumber, body });
            if (record) replies.push(...res.replies);
          }
          return;
        }
        const lines = [...turns];
        let first = true;
        const call = new SimulatedCall(account, transport, {
          async play() {},
          async listen() {
            return lines.shift() ?? "";
          },
          async dial() {
            if (record) transferred = true;
            return script.transferAnswered ? "completed" : "no-answer";
          },
          async record() {
            return script.voicemail ? { text: script.voicemail } : null;
          },
          onEvent() {},
        }, { from: caller, to: number.phoneNumber });
        await call.start();
        const [row] = await db.select().from(schema.calls).where(eq(schema.calls.providerCallSid, call.callSid));
        for (const t of row?.transcript ?? []) {
          if (t.speaker !== "assistant") continue;
          if (first && record) greeting = t.text;
          else if (record) replies.push(t.text);
          first = false;
        }
        await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });
        await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });
      };

      for (const earlier of script.before ?? []) await converse(earlier.channel ?? script.channel ?? "voice", earlier.turns, false);
      // Texts sent during the `before` turns (a STOP's carrier-required confirmation, say) are not graded.
      const sentBefore = new Set(
        (await db.select({ id: schema.messages.id }).from(schema.messages).where(and(eq(schema.messages.organizationId, org.id), eq(schema.messages.direction, "outbound")))).map((m) => m.id),
      );
      await converse(script.channel ?? "voice", script.turns, true);

      if (verbose) console.log(`    greeting: ${greeting}\n${replies.map((r) => `    assistant: ${r}`).join("\n")}`);
      // ─── Grade the final state ──────────────────────────────────────────────────────────────
      const e = script.expect;
      const orgTasks = await db.select().from(schema.tasks).where(eq(schema.tasks.organizationId, org.id));
      if (e.tasks !== undefined) {
        const want = typeof e.tasks === "number" ? { count: e.tasks } : e.tasks;
        const matching = orgTasks.filter((t) => (!want.kind || t.kind === want.kind) && (!want.titleContains || t.title.toLowerCase().includes(want.titleContains.toLowerCase())));
        const count = want.count ?? (matching.length ? matching.length : 1);
        if (matching.length !== count) errors.push(`tasks: wanted ${count}${want.kind ? ` of kind ${want.kind}` : ""}${want.titleContains ? ` with "${want.titleContains}"` : ""}, found ${matching.length} (${orgTasks.map((t) => `${t.kind}: ${t.title}`).join("; ") || "none"})`);
      }
      if (e.appointments !== undefined) {
        const rows = await db.select().from(schema.appointments).where(and(eq(schema.appointments.organizationId, org.id), inArray(schema.appointments.status, ["confirmed", "held"])));
        if (rows.length !== e.appointments) errors.push(`appointments: wanted ${e.appointments}, found ${rows.length}`);
      }
      const outbound = (await db.select().from(schema.messages).where(and(eq(schema.messages.organizationId, org.id), eq(schema.messages.direction, "outbound")))).filter((m) => !sentBefore.has(m.id));
      const sentTo = new Set(outbound.filter((m) => m.status !== "failed").map((m) => m.toNumber));
      for (const to of e.smsTo ?? []) if (!sentTo.has(to)) errors.push(`smsTo: no text went to ${to}`);
      for (const to of e.noSmsTo ?? []) if (sentTo.has(to)) errors.push(`noSmsTo: a text went to ${to}`);
      if (e.textBack) {
        const textBacks = outbound.filter((m) => m.intent === "text_back");
        const follow = await db.select().from(schema.callFollowUps).where(eq(schema.callFollowUps.organizationId, org.id));
        const last = follow.at(-1)?.textBack ?? "none";
        if (e.textBack === "sent" && !textBacks.length) errors.push(`textBack: wanted one sent, got ${last}`);
        if (e.textBack !== "sent" && textBacks.length) errors.push(`textBack: wanted ${e.textBack}, but one was sent`);
        if (e.textBack !== "sent" && e.textBack !== "none" && !follow.some((f) => f.textBack === e.textBack)) errors.push(`textBack: wanted ${e.textBack}, got ${last}`);
      }
      if (e.transfer !== undefined && e.transfer !== transferred) errors.push(`transfer: wanted ${e.transfer}, got ${transferred}`);
      if (e.outcome) {
        const rows = await db.select().from(schema.calls).where(eq(schema.calls.organizationId, org.id));
        const last = rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()).at(-1);
        if (last?.outcome !== e.outcome) errors.push(`outcome: wanted ${e.outcome}, got ${last?.outcome ?? "no call"}`);
      }
      const said = replies.join("\n").toLowerCase();
      for (const s of e.replyContains ?? []) if (!said.includes(s.toLowerCase())) errors.push(`replyContains: "${s}" not in the replies`);
      for (const s of e.replyNotContains ?? []) if (said.includes(s.toLowerCase())) errors.push(`replyNotContains: "${s}" was said`);
      if (e.greetingContains && !greeting.toLowerCase().includes(e.greetingContains.toLowerCase())) errors.push(`greetingContains: "${e.greetingContains}" not in "${greeting}"`);
      if (e.knowledgeGaps !== undefined) {
        const gaps = await db.select().from(schema.knowledgeGaps).where(eq(schema.knowledgeGaps.organizationId, org.id));
        if (gaps.length !== e.knowledgeGaps) errors.push(`knowledgeGaps: wanted ${e.knowledgeGaps}, found ${gaps.length}`);
      }
      if (e.memory) {
        const [contact] = await db.select().from(schema.contacts).where(and(eq(schema.contacts.organizationId, org.id), eq(schema.contacts.phone, caller)));
        if (e.memory.name !== undefined && (contact?.name ?? null) !== e.memory.name) errors.push(`memory.name: wanted ${e.memory.name}, got ${contact?.name ?? null}`);
        if (e.memory.forgotten !== undefined && Boolean(contact?.forgottenAt) !== e.memory.forgotten) errors.push(`memory.forgotten: wanted ${e.memory.forgotten}`);
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
      if (e.noInventedPrices) {
        // Every amount of money the assistant said must be one the business entered.
        const known = JSON.stringify([script.profile ?? {}]).toLowerCase();
        for (const amount of said.match(/\$\s?\d+(?:[.,]\d+)?/g) ?? []) {
          const digits = amount.replace(/[$\s]/g, "");
          const cents = String(Math.round(Number(digits.replace(",", "")) * 100));
          if (!known.includes(digits) && !known.includes(cents)) errors.push(`noInventedPrices: said ${amount}, which the profile does not have`);
        }
      }
    } catch (error) {
      errors.push(`crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    const ms = Math.round(performance.now() - started);
    if (errors.length) failures.push(`✗ ${script.name} (${file})\n    ${errors.join("\n    ")}`);
    else passed += 1;
    console.log(`${errors.length ? "✗" : "✓"} ${script.name}  ${ms} ms`);
    if (verbose || errors.length) for (const err of errors) console.log(`    ${err}`);
  }
  setClock(undefined);
  const total = scripts.length;
  console.log(`\n${passed}/${total} caller scripts passed (${total ? ((passed / total) * 100).toFixed(1) : "0.0"}%)`);
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
  process.exit(passed === total ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
