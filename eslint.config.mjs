import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import contexts from "./scripts/contexts.cjs";

const { CONTEXTS, KNOWN_CROSSINGS, KNOWN_COMPONENT_CROSSINGS, above, contextOf, componentContextOf } = contexts;

/**
 * The walls between layers (docs/conventions.md, "Layers"). Each entry: who may not import what.
 * CI fails on a breach; tests/lint/walls.test.ts proves each wall with a fixture.
 */
const database = ["@/db", "@/db/*", "@/lib/platform/database", "@/lib/consoles/seed/*"];
const wall = (patterns, message) => ({ group: patterns, message });

const browserImportsServices = {
  group: ["@/lib/*/service", "@/lib/*/service.ts", "@/lib/*/*/service", "@/lib/*/*/service.ts", "@/lib/workspace/provider-selection/*", "@/lib/platform/providers/*"],
  allowTypeImports: true,
  message: "Components run in the browser: import a service's types (`import type`), and call its route.",
};

const screenWalls = [wall(database, "Screens never touch the database: they call a route."), browserImportsServices];

/** The folders of a context's screens: components/<context>/ (and components/ui/, the design primitives, for platform). */
const componentFoldersOf = (context) => (context === "platform" ? ["components/platform/**/*.{ts,tsx}", "components/ui/**/*.{ts,tsx}"] : [`components/${context}/**/*.{ts,tsx}`]);
const componentFolders = CONTEXTS.flatMap(componentFoldersOf);

/** Disjoint file groups (a later config object would replace, not extend, an earlier rule). */
export const layerWalls = [
  {
    // Routes get the database only through the route wrapper (lib/identity/http/route.ts).
    files: ["app/**/*.{ts,tsx}"],
    patterns: [wall(database, "Routes never touch the database: a route handler gets `db` from authedRoute/publicRoute and calls a service.")],
  },
  {
    // Screens call routes; they import services for their types only. (The screens of a context get
    // these walls with the order of the contexts in componentWalls below; this group is the rest: components/shell/.)
    files: ["components/**/*.{ts,tsx}"],
    ignores: componentFolders,
    patterns: screenWalls,
  },
  {
    // Providers are pure adapters: an SDK in, an interface out. Features choose and feed them.
    files: ["lib/platform/providers/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    patterns: [
      wall(database, "Providers are pure adapters and never touch the database: provider selection lives in lib/workspace/provider-selection/."),
      wall(
        ["@/lib/*", "!@/lib/platform", "@/lib/platform/*", "!@/lib/platform/providers", "!@/lib/platform/text", "!@/lib/platform/workers", "@/app/*", "@/components/*"],
        "Providers import nothing from features (only lib/platform/providers/** and neutral helpers in lib/platform/text/ and lib/platform/workers/).",
      ),
    ],
  },
  {
    // db/ holds the schema, the migrations and the driver; it knows nothing of the app.
    files: ["db/**/*.{ts,tsx,mjs}"],
    patterns: [wall(["@/lib", "@/lib/*", "@/app/*", "@/components/*", "../lib/*", "../../lib/*"], "db/ imports nothing from lib/, app/ or components/.")],
  },
];

/**
 * The walls between contexts (scripts/contexts.cjs, docs/architecture.md#the-contexts): a context
 * imports only those on its level and below. Tests are left out (a test may set up data with a
 * context above), so are the providers (their own stricter wall above), and each file of today's
 * known crossings gets its own group that lets through only the contexts it still reaches.
 */
const contextWallFor = (context, banned) =>
  wall(
    banned.flatMap((name) => [`@/lib/${name}`, `@/lib/${name}/*`]),
    `A context imports only its own level and those below it (docs/architecture.md#the-contexts): lib/${context}/ may not import lib/${banned.join("/, lib/")}/.`,
  );
const crossings = Object.entries(KNOWN_CROSSINGS);

export const contextWalls = [
  ...CONTEXTS.filter((context) => above(context).length > 0).map((context) => ({
    files: [`lib/${context}/**/*.{ts,tsx,mjs}`],
    ignores: [
      "**/*.test.{ts,tsx}",
      ...(context === "platform" ? ["lib/platform/providers/**"] : []),
      ...crossings.filter(([file]) => contextOf(file) === context).map(([file]) => file),
    ],
    patterns: [contextWallFor(context, above(context))],
  })),
  ...crossings
    .map(([file, allowed]) => [file, above(contextOf(file)).filter((name) => !allowed.includes(name))])
    .filter(([, banned]) => banned.length > 0)
    .map(([file, banned]) => ({ files: [file], patterns: [contextWallFor(contextOf(file), banned)] })),
];

/**
 * The same order for components/ (scripts/contexts.cjs): a screen of context X imports only lib/ and
 * components/ of X's level and below, and never components/shell/ (the frame of every page, above all
 * contexts). Each group repeats the screens' layer walls (one rule per file: a later group would
 * replace them), and each known crossing (KNOWN_COMPONENT_CROSSINGS) gets its own group.
 */
const componentWallFor = (context, banned) =>
  wall(
    banned.flatMap((name) => [`@/lib/${name}`, `@/lib/${name}/*`, `@/components/${name}`, `@/components/${name}/*`]),
    `A screen imports only its own context's level and those below it (docs/architecture.md#the-contexts): components/${context}/ may not import lib/ or components/ of ${banned.join(", ")}.`,
  );
const shellWall = wall(["@/components/shell", "@/components/shell/*"], "components/shell/ is the frame of every page, above all contexts: a context's screen never imports it.");
const componentPatterns = (context, banned) => [...screenWalls, ...(banned.length > 0 ? [componentWallFor(context, banned)] : []), shellWall];
const componentCrossings = Object.entries(KNOWN_COMPONENT_CROSSINGS);

export const componentWalls = [
  ...CONTEXTS.map((context) => ({
    files: componentFoldersOf(context),
    ignores: componentCrossings.filter(([file]) => componentContextOf(file) === context).map(([file]) => file),
    patterns: componentPatterns(context, above(context)),
  })),
  ...componentCrossings.map(([file, allowed]) => ({
    files: [file],
    patterns: componentPatterns(componentContextOf(file), above(componentContextOf(file)).filter((name) => !allowed.includes(name))),
  })),
];

const config = [
  ...nextVitals,
  ...nextTs,
  ...[...layerWalls, ...contextWalls, ...componentWalls].map(({ files, ignores, patterns }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
  })),
  {
    // CommonJS configs (.dependency-cruiser.cjs) load what they share with require().
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read JSON bodies of many shapes; typing each one would test the types, not the app.
    files: ["tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    ignores: [".next/**", "node_modules/**", ".data/**", ".data-*/**", "playwright-report/**", "test-results/**", "next-env.d.ts", "db/migrations/**"],
  },
];

export default config;
