import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The order of the contexts (scripts/contexts.cjs, CommonJS: read in its own process). */
const table = JSON.parse(
  spawnSync(
    process.execPath,
    ["-e", "const c = require('./scripts/contexts.cjs'); process.stdout.write(JSON.stringify({ contexts: c.CONTEXTS, crossings: c.KNOWN_CROSSINGS, above: Object.fromEntries(c.CONTEXTS.map((x) => [x, c.above(x)])) }))"],
    { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  ).stdout,
) as { contexts: string[]; crossings: Record<string, string[]>; above: Record<string, string[]> };
const CONTEXTS = table.contexts;
const KNOWN_CROSSINGS = table.crossings;
const above = (context: string) => table.above[context];

/** The restricted-import messages ESLint gives each fixture (as if it sat at its path). */
function lint(fixtures: Record<string, { path: string; code: string }>): Record<string, string[]> {
  const run = spawnSync(process.execPath, [path.join("tests", "lint", "lint-fixtures.mjs"), JSON.stringify(fixtures)], {
    cwd: process.cwd(),
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  if (run.status !== 0) throw new Error(`lint-fixtures failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * The layer walls of docs/conventions.md are enforced by ESLint (eslint.config.mjs): each fixture
 * below breaches one wall and must be refused; the allowed imports next to them must pass.
 */
const fixtures = {
  routeImportsDb: { path: "app/api/example/route.ts", code: 'import { getDb } from "@/lib/platform/database";\nexport const x = getDb;\n' },
  routeImportsSchema: { path: "app/api/example/route.ts", code: 'import { calls } from "@/db/schema";\nexport const x = calls;\n' },
  screenImportsDb: { path: "components/example/screen.tsx", code: 'import { calls } from "@/db/schema";\nexport const x = calls;\n' },
  screenImportsService: { path: "components/example/screen.tsx", code: 'import { listPhoneNumbers } from "@/lib/phone/numbers/service";\nexport const x = listPhoneNumbers;\n' },
  providerImportsDb: { path: "lib/platform/providers/llm/example.ts", code: 'import type { Db } from "@/db/client";\nexport type X = Db;\n' },
  providerImportsFeature: { path: "lib/platform/providers/llm/example.ts", code: 'import { spendCredits } from "@/lib/workspace/billing/ledger";\nexport const x = spendCredits;\n' },
  dbImportsLib: { path: "db/example.ts", code: 'import { env } from "@/lib/platform/env";\nexport const x = env;\n' },
  // Allowed:
  routeImportsService: { path: "app/api/example/route.ts", code: 'import { listPhoneNumbers } from "@/lib/phone/numbers/service";\nexport const x = listPhoneNumbers;\n' },
  screenImportsServiceType: { path: "components/example/screen.tsx", code: 'import type { PhoneNumber } from "@/lib/phone/numbers/service";\nexport type X = PhoneNumber;\n' },
  providerImportsProvider: { path: "lib/platform/providers/llm/example.ts", code: 'import { splitSentences } from "@/lib/platform/text/sentences";\nimport type { LlmProvider } from "@/lib/platform/providers/llm/interface";\nexport type X = LlmProvider;\nexport const y = splitSentences;\n' },
  serviceImportsDb: { path: "lib/example/service.ts", code: 'import type { Db } from "@/db/client";\nexport type X = Db;\n' },
};

describe("layer walls (lint)", () => {
  let results: Record<string, string[]>;

  beforeAll(() => {
    results = lint(fixtures);
  }, 60_000);

  it.each([
    ["routeImportsDb", /Routes never touch the database/],
    ["routeImportsSchema", /Routes never touch the database/],
    ["screenImportsDb", /Screens never touch the database/],
    ["screenImportsService", /Components run in the browser/],
    ["providerImportsDb", /Providers are pure adapters/],
    ["providerImportsFeature", /Providers import nothing from features/],
    ["dbImportsLib", /db\/ imports nothing from lib/],
  ])("refuses %s", (name, message) => {
    expect(results[name].some((m) => message.test(m))).toBe(true);
  });

  it.each(["routeImportsService", "screenImportsServiceType", "providerImportsProvider", "serviceImportsDb"])("allows %s", (name) => {
    expect(results[name]).toEqual([]);
  });
});

describe("context walls (lint)", () => {
  // One fixture per context with a level above it: it imports the nearest context above (refused)
  // and one on its own level or below (allowed).
  const walled = CONTEXTS.filter((context) => above(context).length > 0);
  const below = (context: string) => CONTEXTS.filter((name) => !above(context).includes(name) && name !== context);
  let results: Record<string, string[]>;

  beforeAll(() => {
    const fixtures: Record<string, { path: string; code: string }> = {};
    for (const context of walled) {
      const target = above(context)[0];
      fixtures[`${context}Up`] = { path: `lib/${context}/example.ts`, code: `import { x } from "@/lib/${target}/example";\nexport const y = x;\n` };
      const allowed = below(context)[0] ?? context;
      fixtures[`${context}Down`] = { path: `lib/${context}/example.ts`, code: `import { x } from "@/lib/${allowed}/example";\nexport const y = x;\n` };
    }
    results = lint(fixtures);
  }, 60_000);

  it.each(walled)("lib/%s/ may not import a context above it", (context) => {
    expect(results[`${context}Up`].some((m) => m.includes(`lib/${context}/ may not import lib/${above(context)[0]}/`))).toBe(true);
  });

  it.each(walled)("lib/%s/ may import its own level and below", (context) => {
    expect(results[`${context}Down`]).toEqual([]);
  });

  it("knows the order of the twelve contexts, lowest first", () => {
    expect(CONTEXTS).toHaveLength(12);
    expect(above("platform")).not.toContain("platform");
    expect(above("consoles")).toEqual([]);
    expect(above("phone")).toEqual(["receptionist", "reports", "channels", "consoles"]);
  });

  it.each(Object.entries(KNOWN_CROSSINGS))("%s still crosses into %j (else remove it from scripts/contexts.cjs)", (file, allowed) => {
    const text = fs.readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)]
      .map((m) => m[1])
      .map((spec) => (spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : ""))
      .map((target) => /^lib\/([^/]+)\//.exec(target)?.[1]);
    for (const context of allowed) expect(targets).toContain(context);
  });
});
