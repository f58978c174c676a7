// Shared by the bench:* scripts. Importing this module points the app at a fresh in-memory PGlite
// with no demo seed, so it must be imported before anything that opens the database (the scripts
// load the app's modules with dynamic imports after it).
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
