/**
 * The import-cycle check and the order of the contexts (CI: `npm run check:cycles`; docs/decisions.md,
 * docs/architecture.md#the-contexts). Runtime imports only: `import type` disappears on compilation
 * and cannot make a module load before its dependency (the lint walls see type imports too).
 */
const { CONTEXTS, KNOWN_CROSSINGS, above, contextOf } = require("./scripts/contexts.cjs");

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const crossings = Object.entries(KNOWN_CROSSINGS);

/** The order of the contexts (scripts/contexts.cjs): runtime imports, relative ones included. */
const contextOrder = [
  ...CONTEXTS.filter((context) => above(context).length > 0).map((context) => ({
    name: `context-order-${context}`,
    severity: "error",
    comment: `lib/${context}/ imports only its own level and those below it (docs/architecture.md#the-contexts).`,
    from: { path: `^lib/${context}/`, pathNot: ["\\.test\\.tsx?$", ...crossings.filter(([file]) => contextOf(file) === context).map(([file]) => `^${escape(file)}$`)] },
    to: { path: `^lib/(${above(context).join("|")})/` },
  })),
  ...crossings
    .map(([file, allowed]) => [file, above(contextOf(file)).filter((name) => !allowed.includes(name))])
    .filter(([, banned]) => banned.length > 0)
    .map(([file, banned]) => ({
      name: `context-order-${contextOf(file)}`,
      severity: "error",
      comment: `${file} is a known crossing (scripts/contexts.cjs); every other context above lib/${contextOf(file)}/ stays walled off.`,
      from: { path: `^${escape(file)}$` },
      to: { path: `^lib/(${banned.join("|")})/` },
    })),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module must not import itself through others: break the circle by moving the shared part down a layer.",
      from: {},
      to: { circular: true },
    },
    ...contextOrder,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data[^/]*|playwright-report|test-results|db/migrations)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    skipAnalysisNotInRules: true,
  },
};
