/**
 * The booking scripts of `npm run eval:calls` (eval/calls/dev/booking-*.yaml), played here through the
 * same webhooks as the suite's harness: a fresh business from the script's profile and services,
 * the script's clock, earlier conversations (`before`), then the turns; graded by the final state —
 * live appointments, texts sent or not, what the assistant said and did not say.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { parse as parseYaml } from "yaml";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { appointments, calls, messages, organizations, type BusinessProfile, type TranscriptTurn } from "@/db/schema";
import { appointmentTextJob } from "@/lib/scheduling/notifications";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import type { JobDefinition } from "@/lib/platform/jobs/types";
import { createServiceInput } from "@/lib/knowledge/services/schema";
import { createService } from "@/lib/knowledge/services/service";
import { forgetCallContexts } from "@/lib/channels/phone-line/voice/runtime";
import { carrierPost, fakeSid, find } from "../helpers/carrier";
import { silenceOfflineSpeech } from "../helpers/silent-speech";
import { business, callParams, say } from "../helpers/phone";

jest.setTimeout(180_000);


type Script = {
  name: string;
  profile: Record<string, unknown> & { name: string; services?: Record<string, unknown>[] };
  now: string;
  caller: string;
  channel?: "voice" | "sms";
  before?: { channel?: "voice" | "sms"; caller?: string; turns: string[] }[];
  turns: string[];
  expect: { appointments?: number; smsTo?: string[]; noSmsTo?: string[]; replyContains?: string[]; replyNotContains?: string[] };
};

const dir = path.join(process.cwd(), "eval", "calls", "dev");
const scripts = fs
  .readdirSync(dir)
  .filter((f) => f.startsWith("booking-") && f.endsWith(".yaml"))
  .sort()
  .map((f) => ({ file: f, script: parseYaml(fs.readFileSync(path.join(dir, f), "utf8")) as Script }));

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-eval-booking-"));
beforeAll(() => {
  jest.useFakeTimers({
    doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback", "cancelIdleCallback", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"],
  });
  setBlobStore(createFilesystemBlobStore(blobDir));
  // Graded by what is said and written: speech synthesis on a busy machine must not eat a turn's time limit.
  silenceOfflineSpeech();
});
afterAll(async () => {
  jest.useRealTimers();
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

it("has the five booking scripts the suite asks for (book, impossible time, reschedule, cancel, race)", () => {
  const names = scripts.map((s) => s.file);
  for (const f of ["booking-book.yaml", "booking-impossible-time.yaml", "booking-reschedule.yaml", "booking-cancel.yaml", "booking-double-book-race.yaml"]) expect(names).toContain(f);
});

describe.each(scripts)("$file", ({ script }) => {
  it(script.name, async () => {
    jest.setSystemTime(new Date(script.now));
    const biz = await business(script.profile.name);
    const organizationId = biz.account.organizationId;
    const db = await getDb();
    const { name, services = [], ...profile } = script.profile;
    await db.update(organizations).set({ name, businessProfile: profile as BusinessProfile }).where(eq(organizations.id, organizationId));
    for (const s of services) await createService(db, organizationId, createServiceInput.parse(s));
    forgetCallContexts();

    async function converse(channel: "voice" | "sms", from: string, turns: string[]): Promise<string[]> {
      const replies: string[] = [];
      if (channel === "sms") {
        for (const body of turns) {
          const params = { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" };
          const res = await carrierPost(smsHook, "/api/telephony/sms", params, biz.authToken);
          expect(res.status).toBe(200);
          const message = find(res.verbs, "Message");
          if (message) replies.push(message.text);
        }
        return replies;
      }
      const callSid = fakeSid("CA");
      const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, { From: from }), biz.authToken);
      let action = find(res.verbs, "Gather")?.attrs.action;
      for (const speech of turns) {
        if (!action) break;
        const r = await say(biz, callSid, action, speech, { From: from });
        expect(r.status).toBe(200);
        action = find(r.verbs, "Gather")?.attrs.action;
      }
      const [row] = await db.select({ transcript: calls.transcript }).from(calls).where(eq(calls.providerCallSid, callSid));
      return (row.transcript as TranscriptTurn[]).filter((t) => t.speaker === "assistant").map((t) => t.text);
    }

    for (const earlier of script.before ?? []) await converse(earlier.channel ?? script.channel ?? "voice", earlier.caller ?? script.caller, earlier.turns);
    const said = (await converse(script.channel ?? "voice", script.caller, script.turns)).join("\n");
    await runDueJobs({ definitions: [appointmentTextJob] as JobDefinition<unknown>[], schedules: false });

    const e = script.expect;
    if (e.appointments !== undefined) {
      const live = await db.select().from(appointments).where(and(eq(appointments.organizationId, organizationId), inArray(appointments.status, ["confirmed", "held"])));
      expect(live).toHaveLength(e.appointments);
    }
    const texts = await db
      .select({ to: messages.toNumber, body: messages.body })
      .from(messages)
      .where(and(eq(messages.organizationId, organizationId), eq(messages.direction, "outbound"), eq(messages.intent, "appointment")));
    for (const to of e.smsTo ?? []) expect(texts.filter((t) => t.to === to && /you're booked|is moved to/.test(t.body)).length).toBeGreaterThan(0);
    for (const to of e.noSmsTo ?? []) expect(texts.filter((t) => t.to === to)).toEqual([]);
    for (const s of e.replyContains ?? []) expect(said).toContain(s);
    for (const s of e.replyNotContains ?? []) expect(said).not.toContain(s);
  });
});
