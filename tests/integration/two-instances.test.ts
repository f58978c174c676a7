/**
 * Two instances over one PostgreSQL database (issue 29, docs/deploy.md): a second instance in a
 * process of its own (tests/fixtures/job-instance.ts) takes a job and is killed with SIGKILL while it
 * runs; this instance runs the job within a minute, once its lease has run out with no heartbeat.
 * And audio stored by this instance plays from the other's own /api/audio handler.
 * Embedded PGlite is one process: skipped there (run with DATABASE_URL, as CI does).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import crypto from "node:crypto";
import { closeDb, getDb } from "@/lib/database";
import { getBlobStore } from "@/lib/blob-store";
import { saveAudioClip, signedAudioUrl } from "@/lib/voice/audio-clips";
import { registerTestUser } from "../helpers/accounts";
import { closeJobQueue, enqueue } from "@/lib/jobs/queue";
import { runDueJobs } from "@/lib/jobs/runner";
import { defineJob, type JobDefinition } from "@/lib/jobs/types";

const onServer = Boolean(process.env.DATABASE_URL);
if (!onServer) console.log("[two-instances] skipped: embedded PGlite is one process; set DATABASE_URL to run it on PostgreSQL");
const describeOnServer = onServer ? describe : describe.skip;

afterAll(async () => {
  await closeJobQueue();
  await closeDb();
});

function startInstance(env: Record<string, string>, ready = /started (\S+)/): { child: ChildProcess; started: Promise<string> } {
  const root = path.resolve(__dirname, "../..");
  // node itself (not the tsx wrapper, which would run the script in a grandchild that SIGKILL misses).
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "tests/fixtures/job-instance.ts")], {
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
