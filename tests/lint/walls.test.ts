import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The order of the contexts (scripts/contexts.cjs, CommonJS: read in its own process). */
const table = JSON.parse(
  spawnSync(
    process.execPath,
    [
      "-e",
      "const c = require('./scripts/contexts.cjs'); process.stdout.write(JSON.stringify({ contexts: c.CONTEXTS, crossings: c.KNOWN_CROSSINGS, componentCrossings: c.KNOWN_COMPONENT_CROSSINGS, above: Object.fromEntries(c.CONTEXTS.map((x) => [x, c.above(x)])) }))",
    ],
    { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  ).stdout,
) as { contexts: string[]; crossings: Record<string, string[]>; componentCrossings: Record<string, string[]>; above: Record<string, string[]> };
const CONTEXTS = table.contexts;
const KNOWN_CROSSINGS = table.crossings;
const KNOWN_COMPONENT_CROSSINGS = table.componentCrossings;
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

  it("every listed crossing still crosses (else remove it from scripts/contexts.cjs)", () => {
    for (const [file, allowed] of Object.entries(KNOWN_CROSSINGS) as [string, string[]][]) {
      const targets = importedContexts(file).map((target) => /^lib\/([^/]+)\//.exec(target)?.[1]);
      for (const context of allowed) expect({ file, targets }).toEqual({ file, targets: expect.arrayContaining([context]) });
    }
  });

  it("no file of lib/ imports against the order (0 crossings left)", () => {
    expect(KNOWN_CROSSINGS).toEqual({});
  });
});

/** The repository paths a file imports (`@/…` and relative specifiers). */
function importedContexts(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)]
    .map((m) => m[1])
    .map((spec) => (spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : ""));
}

describe("context walls for components (lint)", () => {
  // A screen of context X imports lib/ and components/ of X's level and below, never the shell.
  const walled = CONTEXTS.filter((context) => above(context).length > 0);
  const below = (context: string) => CONTEXTS.filter((name) => !above(context).includes(name) && name !== context);
  const code = (spec: string) => `import { x } from "${spec}";\nexport const y = x;\n`;
  let results: Record<string, string[]>;

  beforeAll(() => {
    const fixtures: Record<string, { path: string; code: string }> = {};
    for (const context of walled) {
      const target = above(context)[0];
      const allowed = below(context)[0] ?? context;
      const file = `components/${context}/example/screen.tsx`;
      fixtures[`${context}UpScreen`] = { path: file, code: code(`@/components/${target}/example/screen`) };
      fixtures[`${context}UpLib`] = { path: file, code: code(`@/lib/${target}/example`) };
      fixtures[`${context}DownScreen`] = { path: file, code: code(`@/components/${allowed}/example/screen`) };
      fixtures[`${context}DownLib`] = { path: file, code: code(`@/lib/${allowed}/example`) };
    }
    for (const context of CONTEXTS) fixtures[`${context}Shell`] = { path: `components/${context}/example/screen.tsx`, code: code("@/components/shell/layout/logo") };
    // components/ui/ is level platform; the shell may import any context; a context's screen keeps the layer walls.
    fixtures.uiUp = { path: "components/ui/example.tsx", code: code("@/components/identity/auth/form-field") };
    fixtures.uiUi = { path: "components/ui/example.tsx", code: code("@/components/ui/input") };
    fixtures.shellTop = { path: "components/shell/layout/example.tsx", code: code("@/components/consoles/dashboard/dashboard") };
    fixtures.contextScreenDb = { path: "components/phone/example/screen.tsx", code: code("@/db/schema") };
    fixtures.contextScreenService = { path: "components/consoles/example/screen.tsx", code: code("@/lib/phone/numbers/service") };
    // A known crossing reaches only the contexts listed for it.
    const [crossingFile, crossingAllowed] = Object.entries(KNOWN_COMPONENT_CROSSINGS)[0];
    const crossingContext = crossingFile.split("/")[1];
    const stillBanned = above(crossingContext).find((name) => !crossingAllowed.includes(name));
    fixtures.crossingAllowed = { path: crossingFile, code: code(`@/lib/${crossingAllowed[0]}/example`) };
    fixtures.crossingBanned = { path: crossingFile, code: code(`@/lib/${stillBanned ?? "missing"}/example`) };
    results = lint(fixtures);
  }, 60_000);

  it.each(walled)("components/%s/ may not import a screen or lib/ of a context above it", (context) => {
    const message = `components/${context}/ may not import lib/ or components/ of ${above(context).join(", ")}`;
    expect(results[`${context}UpScreen`].some((m) => m.includes(message))).toBe(true);
    expect(results[`${context}UpLib`].some((m) => m.includes(message))).toBe(true);
  });

  it.each(walled)("components/%s/ may import screens and lib/ of its own level and below", (context) => {
    expect(results[`${context}DownScreen`]).toEqual([]);
    expect(results[`${context}DownLib`]).toEqual([]);
  });

  it.each(CONTEXTS)("components/%s/ may not import the shell", (context) => {
    expect(results[`${context}Shell`].some((m) => m.includes("components/shell/ is the frame of every page"))).toBe(true);
  });

  it("walls components/ui/ as platform, lets the shell import any context, and keeps the layer walls", () => {
    expect(results.uiUp.some((m) => m.includes("components/platform/ may not import"))).toBe(true);
    expect(results.uiUi).toEqual([]);
    expect(results.shellTop).toEqual([]);
    expect(results.contextScreenDb.some((m) => /Screens never touch the database/.test(m))).toBe(true);
    expect(results.contextScreenService.some((m) => /Components run in the browser/.test(m))).toBe(true);
  });

  it("lets a known crossing reach only the contexts listed for it", () => {
    expect(results.crossingAllowed).toEqual([]);
    expect(results.crossingBanned.some((m) => m.includes("may not import lib/ or components/ of"))).toBe(true);
  });

  it.each(Object.entries(KNOWN_COMPONENT_CROSSINGS))("%s still crosses into %j (else remove it from scripts/contexts.cjs)", (file, allowed) => {
    const targets = importedContexts(file).map((target) => /^(?:lib|components)\/([^/]+)\//.exec(target)?.[1]);
    for (const context of allowed) expect(targets).toContain(context);
  });

  it("places every file of components/ in a context folder, components/ui/ or components/shell/", () => {
    const folders = fs.readdirSync("components", { withFileTypes: true });
    expect(folders.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    expect(folders.map((entry) => entry.name).filter((name) => !CONTEXTS.includes(name) && name !== "ui" && name !== "shell")).toEqual([]);
  });
});
