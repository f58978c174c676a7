// Shared by the bench:* scripts. Importing this module points the app at a fresh in-memory PGlite
// with no demo seed, so it must be imported before anything that opens the database (the scripts
// load the app's modules with dynamic imports after it).
import http from "node:http";

process.env.PGLITE_DATA_DIR = "memory://";
delete process.env.DATABASE_URL;
process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123456789";
process.env.SEED_DEMO_DATA = "false";

/** The p-th percentile (nearest rank) of the samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Registers the benchmark's user through the real route and returns its session and organization. */
export async function registerBenchAccount(register: RouteHandler, name = "bench"): Promise<{ sessionId: string; organizationId: string }> {
  const res = await register(
    new Request("http://localhost:3000/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "bench-pass-123", firstName: "Bench", lastName: "Mark" }),
    }),
    { params: Promise.resolve({}) },
  );
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { sessionId: string; organizationId: string };
}

/**
 * A light HTTP/1.1 client for load against a local server: node:http on kept-alive connections.
 * The load generator shares the machine's cores with the server it measures; `fetch` (undici) cost
 * 4–7 ms of CPU per voice-test request here, this ~1.5 ms (docs/benchmarks.md, bench:voice).
 */
export function lightHttpClient(baseUrl: string) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return {
    request(method: "GET" | "POST", path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { ...options.headers };
        if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
        const req = http.request({ host: url.hostname, port: url.port, path, method, agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(options.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
