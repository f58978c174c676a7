import { spawnSync } from "node:child_process";
import path from "node:path";

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
    const run = spawnSync(process.execPath, [path.join("tests", "lint", "lint-fixtures.mjs"), JSON.stringify(fixtures)], {
      cwd: process.cwd(),
      encoding: "utf8",
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    if (run.status !== 0) throw new Error(`lint-fixtures failed: ${run.stderr}`);
    results = JSON.parse(run.stdout);
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
