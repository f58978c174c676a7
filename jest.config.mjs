import nextJest from "next/jest.js";

const createJestConfig = nextJest({ dir: "./" });

// better-auth and its dependencies ship ESM only; next/jest ignores node_modules, so allow-list them.
const esmPackages = [
  "better-auth",
  "@better-auth",
  "better-call",
  "jose",
  "nanostores",
  "@noble",
  "rou3",
  "defu",
  "uncrypto",
  "kysely",
  "nanoid",
  "@simplewebauthn",
  "zod",
  // pdf.js ships ES modules only (lib/knowledge/business-profile/import/pdf.ts).
  "pdfjs-dist",
  // franc-min (language detection, lib/agents/conversation/understanding/) and its trigram helpers.
  "franc-min",
  "trigram-utils",
  "n-gram",
  "collapse-white-space",
];

const config = {
  testEnvironment: "node",
  roots: ["<rootDir>/lib", "<rootDir>/tests", "<rootDir>/db"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  testPathIgnorePatterns: ["/node_modules/", "/tests/e2e/", "/.next/"],
  globalSetup: "<rootDir>/tests/setup/global-setup.mjs",
  globalTeardown: "<rootDir>/tests/setup/global-teardown.mjs",
  setupFiles: ["<rootDir>/tests/setup/env.mjs"],
  setupFilesAfterEnv: ["<rootDir>/tests/setup/after-env.ts"],
  moduleNameMapper: {
    "^server-only$": "<rootDir>/tests/setup/empty-module.js",
    "^@/(.*)$": "<rootDir>/$1",
  },
  // A file loads its migrated database from a dump (tests/setup/pglite-template.mjs): ~2 s quiet, more under load.
  testTimeout: 60000,
};

export default async function jestConfig() {
  const resolved = await createJestConfig(config)();
  resolved.transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join("|")})/)`, "^.+\\.module\\.(css|sass|scss)$"];
  return resolved;
}
