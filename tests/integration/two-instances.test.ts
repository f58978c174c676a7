/**
 * Two instances over one PostgreSQL database (issue 29, docs/deploy.md): a second instance in a
 * process of its own (tests/fixtures/job-instance.ts) takes a job and is killed with SIGKILL while it
 * runs; this instance runs the job within a minute, once its lease has run out with no heartbeat.
 * And audio stored by this instance plays from the other's own /api/audio handler. And two relay
 * gateways in processes of their own (tests/fixtures/gateway-instance.ts): a call starts on one,
 * that gateway is killed, the Connect action opens the session again, the socket lands on the other
 * gateway and the message is taken once.
 * Embedded PGlite is one process: skipped there (run with DATABASE_URL, as CI does).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import twilio from "twilio";
import WebSocket from "ws";
import { calls, phoneNumbers, tasks } from "@/db/schema";
import { POST as connectHook } from "@/app/api/telephony/voice/connect/route";
import { RELAY_RECONNECT_TAG } from "@/lib/phone/telephony/relay/reconnect";
import { gatewayPublicBase } from "@/lib/phone/telephony/relay/urls";
import { carrierPost } from "../helpers/carrier";
import { business, callParams, startCall } from "../helpers/phone";
import path from "node:path";
import crypto from "node:crypto";
import { closeDb, getDb } from "@/lib/platform/database";
import { getBlobStore } from "@/lib/platform/blob-store";
import { saveAudioClip, signedAudioUrl } from "@/lib/phone/voice/audio-clips";
import { registerTestUser } from "../helpers/accounts";
import { closeJobQueue, enqueue } from "@/lib/platform/jobs/queue";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { defineJob, type JobDefinition } from "@/lib/platform/jobs/types";

const onServer = Boolean(process.env.DATABASE_URL);
if (!onServer) console.log("[two-instances] skipped: embedded PGlite is one process; set DATABASE_URL to run it on PostgreSQL");
const describeOnServer = onServer ? describe : describe.skip;

afterAll(async () => {
  await closeJobQueue();
  await closeDb();
});

function startInstance(env: Record<string, string>, ready = /started (\S+)/, fixture = "tests/fixtures/job-instance.ts"): { child: ChildProcess; started: Promise<string> } {
  const root = path.resolve(__dirname, "../..");
  // node itself (not the tsx wrapper, which would run the script in a grandchild that SIGKILL misses).
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, fixture)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", NODE_OPTIONS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += String(d)));
  const started = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
      const match = ready.exec(out);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`second instance exited (${code}): ${err.slice(-2000)}`)));
  });
  return { child, started };
}

/** A call's socket as Twilio opens it (signed upgrade); `say` sends a prompt and answers the line that ends the reply. */
function relaySocket(url: string, signature: string): Promise<{ ws: WebSocket; say: (words: string) => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { "x-twilio-signature": signature } });
    let waiting: ((token: string) => void) | null = null;
    let text = "";
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as { type: string; token?: string; last?: boolean };
      if (frame.type !== "text") return;
      text += frame.token ?? "";
      if (frame.last && waiting) {
        const done = waiting;
        waiting = null;
        done(text.trim());
      }
    });
    ws.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on("error", reject);
    ws.on("open", () =>
      resolve({
        ws,
        say: (words) =>
          new Promise<string>((res, rej) => {
            text = "";
            const timer = setTimeout(() => rej(new Error(`no reply to "${words}"`)), 15_000);
            waiting = (t) => (clearTimeout(timer), res(t));
            ws.send(JSON.stringify({ type: "prompt", voicePrompt: words, lang: "en-US", last: true }));
          }),
      }),
    );
  });
}

describeOnServer("two instances on one database", () => {
  it("audio stored by one instance plays from the other (its own process, store and handler)", async () => {
    const owner = await registerTestUser();
    const audio = crypto.randomBytes(48_000);
    const clip = await saveAudioClip(await getDb(), getBlobStore(), { organizationId: owner.organizationId, audio, contentType: "audio/wav", durationMs: 1500, source: "call" });
    const other = startInstance({ AUDIO_URL: signedAudioUrl(clip.id) }, /audio (\d+ \S+)/);
    try {
      expect(await other.started).toBe(`200 ${crypto.createHash("sha256").update(audio).digest("hex")}`);
    } finally {
      if (other.child.exitCode === null) other.child.kill("SIGKILL");
    }
  }, 120_000);

  it("a call whose gateway is killed goes on on the other gateway: the message under way is taken once", async () => {
    // Both gateways sit behind one public address (a load balancer): the URL the app puts in the
    // TwiML, which Twilio signs.
    const publicBase = gatewayPublicBase();
    const gateways = [1, 2].map(() => startInstance({ GATEWAY_PUBLIC_URL: publicBase, GATEWAY_PORT: "0" }, /gateway (\d+)/, "tests/fixtures/gateway-instance.ts"));
    try {
      const [port1, port2] = await Promise.all(gateways.map((g) => g.started));
      const biz = await business("Two Gateways Dental");
      const db = await getDb();
      await db.update(phoneNumbers).set({ streaming: true }).where(and(eq(phoneNumbers.id, biz.numberId), eq(phoneNumbers.organizationId, biz.account.organizationId)));
      const { callSid, res } = await startCall(biz);
      const callId = res.verbs[0].children[0].children[0].attrs.value;
      const open = async (port: string, signedUrl: string) => {
        expect(signedUrl).toBe(`${publicBase}/relay?callId=${encodeURIComponent(callId)}`);
        const signature = twilio.getExpectedTwilioSignature(biz.authToken, signedUrl, {});
        const socket = await relaySocket(`ws://127.0.0.1:${port}/relay?callId=${encodeURIComponent(callId)}`, signature);
        socket.ws.send(JSON.stringify({ type: "setup", callSid, from: "+15555550123", to: biz.phoneNumber }));
        return socket;
      };

      const first = await open(port1, res.verbs[0].children[0].attrs.url);
      const asked = await first.say("Can someone call me back?");
      expect(asked).toMatch(/call back from the team.*write it down/);
      // Gateway 1 dies (kill -9): its socket drops, and Twilio's reconnect lands on gateway 2.
      const closed = new Promise((r) => first.ws.once("close", r));
      expect(gateways[0].child.kill("SIGKILL")).toBe(true);
      await closed;
      // Twilio ends the failed session at the Connect action, which opens a new one for the same call.
      const again = await carrierPost(connectHook, "/api/telephony/voice/connect?step=1", callParams(biz, callSid, { SessionStatus: "failed", CallStatus: "in-progress" }), biz.authToken);
      expect(again.verbs.map((v) => v.name)).toEqual(["Connect"]);
      const second = await open(port2, again.verbs[0].children[0].attrs.url);
      const taken = await second.say("This is Tom Baker, it's about my bill from last week");
      expect(taken).toMatch(/^Thank you, Tom Baker\. I've written your message down/);
      second.ws.close();

      const [row] = await db.select().from(calls).where(and(eq(calls.providerCallSid, callSid), eq(calls.organizationId, biz.account.organizationId)));
      const written = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.callId, row.id)));
      expect(written).toHaveLength(1);
      expect(written[0].detail).toContain("about my bill");
      expect(row.transcript.filter((t) => t.speaker === "caller").map((t) => t.text)).toEqual(["Can someone call me back?", "This is Tom Baker, it's about my bill from last week"]);
      expect(row.transcript.some((t) => t.intent === RELAY_RECONNECT_TAG)).toBe(true);
    } finally {
      for (const g of gateways) if (g.child.exitCode === null) g.child.kill("SIGKILL");
    }
  }, 120_000);

  it("a job the killed instance held runs on the other within a minute (lease, no heartbeat)", async () => {
    const name = `test.two-instances-${Date.now().toString(36)}`;
    const runs: { at: number; attempt: number }[] = [];
    const job = defineJob<{ tag: string }>({
      name,
      retryLimit: 0,
      leaseSeconds: 5,
      async handler(_data, ctx) {
        runs.push({ at: Date.now(), attempt: ctx.job.attempt });
      },
    });
    const definitions = [job] as JobDefinition<unknown>[];
    await enqueue(null, job, { tag: "held" });
    const other = startInstance({ JOB_NAME: name, JOB_LEASE_SECONDS: "5" });
    let killedAt = 0;
    try {
      await other.started; // the other instance runs it now, renewing its lease
      // While it lives, this instance finds nothing to take.
      for (let i = 0; i < 4; i++) {
        await runDueJobs({ definitions, schedules: false, budgetMs: 200 });
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(runs).toHaveLength(0);
      expect(other.child.kill("SIGKILL")).toBe(true);
      killedAt = Date.now();
      await new Promise((r) => other.child.once("exit", r));
    } finally {
      if (other.child.exitCode === null) other.child.kill("SIGKILL");
    }
    while (runs.length === 0 && Date.now() - killedAt < 60_000) {
      await runDueJobs({ definitions, schedules: false, budgetMs: 500 });
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(runs).toHaveLength(1);
    expect(runs[0].at - killedAt).toBeLessThan(60_000);
    expect(runs[0].attempt).toBe(2);
    console.log(`[two-instances] the killed instance's job ran here ${((runs[0].at - killedAt) / 1000).toFixed(1)} s after kill -9`);
  }, 150_000);
});
