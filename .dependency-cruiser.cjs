/**
 * The import-cycle check and the order of the contexts (CI: `npm run check:cycles`; docs/decisions.md,
 * docs/architecture.md#the-contexts). Runtime imports only: `import type` disappears on compilation
 * and cannot make a module load before its dependency (the lint walls see type imports too).
 */
const { CONTEXTS, KNOWN_CROSSINGS, KNOWN_COMPONENT_CROSSINGS, above, contextOf, componentContextOf } = require("./scripts/contexts.cjs");

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

/**
 * The same order for the screens (components/<context>/, components/ui/ is platform): lib/ and
 * components/ of the levels above, and components/shell/ (the frame of every page), are off limits.
 */
const componentCrossings = Object.entries(KNOWN_COMPONENT_CROSSINGS);
const componentTargets = (banned) => `^(components/shell/${banned.length > 0 ? `|(lib|components)/(${banned.join("|")})/` : ""})`;
const componentOrder = [
  ...CONTEXTS.map((context) => ({
    name: `component-order-${context}`,
    severity: "error",
    comment: `components/${context}/ imports only lib/ and components/ of its own level and those below it, never components/shell/ (docs/architecture.md#screens-and-docs-by-context).`,
    from: {
      path: context === "platform" ? "^components/(platform|ui)/" : `^components/${context}/`,
      pathNot: componentCrossings.filter(([file]) => componentContextOf(file) === context).map(([file]) => `^${escape(file)}$`),
    },
    to: { path: componentTargets(above(context)) },
  })),
  ...componentCrossings.map(([file, allowed]) => ({
    name: `component-order-${componentContextOf(file)}`,
    severity: "error",
    comment: `${file} is a known crossing (scripts/contexts.cjs); every other context above components/${componentContextOf(file)}/ stays walled off.`,
    from: { path: `^${escape(file)}$` },
    to: { path: componentTargets(above(componentContextOf(file)).filter((name) => !allowed.includes(name))) },
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
    ...componentOrder,
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
