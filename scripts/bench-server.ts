// Starts the production build under `next start` for a benchmark: a port of its own, a fresh
// database (a temporary embedded PGlite, or a new database on BENCH_DATABASE_URL's PostgreSQL
// server, dropped afterwards), the demo seed, and any extra environment (e.g. SPEECH_WORKERS).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

import { buildIfNeeded } from "./build-if-needed.mjs";

export type BenchServer = {
  url: string;
  driver: "pglite" | "postgres";
  /** Lines the server printed (the last 200), for a failure report. */
  output: string[];
  /** CPU time used so far by the server's processes, all threads (Linux; null elsewhere). */
  cpuSeconds(): number | null;
  /**
   * CPU seconds so far of the server process's threads, by kind (Linux; null elsewhere): its event
   * loop (the main thread), the worker threads it started (they take the server's name), and the
   * rest (V8's garbage-collection and compiler helpers, libuv's file-system threads).
   */
  threadCpuSeconds(): { eventLoop: number; workers: number; helpers: number } | null;
  stop(): Promise<void>;
};

const CLOCK_TICKS = 100; // USER_HZ on Linux

type ProcStat = { pid: number; name: string; group: number; cpuSeconds: number };

/** Every process's /proc/<pid>/stat: its command name, process group (5th field) and utime + stime (14th, 15th). */
function processStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on
      stats.push({
        pid: Number(entry),
        name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        group: Number(fields[2]),
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return stats;
}

const sumCpu = (stats: ProcStat[]) => stats.reduce((sum, p) => sum + p.cpuSeconds, 0);

/** CPU seconds so far of every process in the group. */
function groupCpuSeconds(group: number): number | null {
  if (process.platform !== "linux") return null;
  return sumCpu(processStats().filter((p) => p.group === group));
}

/** utime + stime of each thread of a process, by kind (see BenchServer.threadCpuSeconds). */
function processThreadCpuSeconds(pid: number): { eventLoop: number; workers: number; helpers: number } | null {
  if (process.platform !== "linux") return null;
  const totals = { eventLoop: 0, workers: 0, helpers: 0 };
  let mainName: string | null = null;
  const threads: { tid: number; name: string; ticks: number }[] = [];
  for (const entry of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      threads.push({ tid: Number(entry), name, ticks: Number(fields[11]) + Number(fields[12]) });
      if (Number(entry) === pid) mainName = name;
    } catch {
      // the thread ended meanwhile
    }
  }
  for (const t of threads) {
    const kind = t.tid === pid ? "eventLoop" : t.name === mainName ? "workers" : "helpers";
    totals[kind] += t.ticks / CLOCK_TICKS;
  }
  return totals;
}

/**
 * The whole machine's CPU seconds so far from /proc/stat: busy (user, nice, system, irq, softirq,
 * steal) and idle (idle, iowait), summed over all cores (Linux; null elsewhere).
 */
export function machineCpuSeconds(): { busy: number; idle: number } | null {
  if (process.platform !== "linux") return null;
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]; // "cpu  user nice system idle iowait irq softirq steal …"
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { busy: (user + nice + system + irq + softirq + steal) / CLOCK_TICKS, idle: (idle + iowait) / CLOCK_TICKS };
}

/** CPU seconds so far of every process whose command name is `name` (e.g. the PostgreSQL server's backends). */
export function namedProcessesCpuSeconds(name: string): number | null {
  if (process.platform !== "linux") return null;
  return sumCpu(processStats().filter((p) => p.name === name));
}

/** The pid of the server process in a group (the one listening; `next start` may run it as a child). */
function serverPid(group: number): number {
  for (const p of processStats()) {
    if (p.group !== group) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${p.pid}/cmdline`, "utf8");
      if (cmdline.includes("next") && fs.readdirSync(`/proc/${p.pid}/task`).length > 1) return p.pid;
    } catch {
      // ended meanwhile
    }
  }
  return group;
}

async function freePort(): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT);
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `switchboard_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Builds if the sources changed, starts `next start`, and waits until it answers. */
export async function startBenchServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  // BENCH_SKIP_BUILD=true serves whatever build .next holds (e.g. one made before a change, to compare).
  if (process.env.BENCH_SKIP_BUILD !== "true") buildIfNeeded();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-server-"));
  const postgres = process.env.BENCH_DATABASE_URL ? await freshPostgresDatabase(process.env.BENCH_DATABASE_URL) : null;

  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean); // e.g. V8 flags to try
  const child = spawn(process.execPath, [...nodeFlags, path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    detached: true, // its own process group, stopped as a whole
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: postgres?.url ?? "",
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
      SEED_DEMO_DATA: "true",
      BETTER_AUTH_SECRET: "bench-server-secret-bench-server-secret-0123",
      ...extraEnv,
    },
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split("\n").filter(Boolean));
    output.splice(0, Math.max(0, output.length - 200));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };

  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`next start exited (${child.exitCode}):\n${output.join("\n")}`);
    }
    try {
      const response = await fetch(`${url}/api/subscription-plans`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer within 180 s:\n${output.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const group = child.pid!;
  const pid = serverPid(group);
  return {
    url,
    driver: postgres ? "postgres" : "pglite",
    output,
    cpuSeconds: () => groupCpuSeconds(group),
    threadCpuSeconds: () => processThreadCpuSeconds(pid),
    stop,
  };
}
