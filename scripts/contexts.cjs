/**
 * The contexts of lib/ from the bottom up (docs/architecture.md#the-contexts): a context imports only
 * the contexts on its own level and below. One table for the lint walls (eslint.config.mjs, proven by
 * tests/lint/walls.test.ts) and the cycle check (.dependency-cruiser.cjs, `npm run check:cycles`).
 * lib/all-jobs.ts, the one job list, sits above them all (it names every context's jobs).
 */
const LEVELS = [
  ["platform"],
  ["identity"],
  ["workspace"],
  ["knowledge", "phone", "scheduling", "agents", "compliance"],
  ["receptionist"],
  ["reports"],
  ["channels"],
  ["consoles"],
];

const CONTEXTS = LEVELS.flat();

/**
 * The imports against the order that the code has today, file by file, and the contexts above its
 * own that each file still reaches (`node scripts/context-crossings.mjs` lists them from the code):
 * the debt to pay down (move the shared part down, or pass it in).
 * A file here is still walled off from every other context above it. Remove an entry when its
 * crossing goes (tests/lint/walls.test.ts fails on an entry that no longer crosses). Entries are
 * for code written before the walls (issue 28); new code moves the shared part down instead.
 *
 * None today: the last one (a connected Google Calendar needing a fresh OAuth token from the
 * integrations) went when the stored grants moved to lib/platform/outbound/oauth-grants.ts and the
 * owners' notice of a lost grant became a job (docs/architecture.md#what-still-crosses).
 */
const KNOWN_CROSSINGS = {};

/**
 * components/ follows the same order (components/<context>/<feature>/, docs/architecture.md#the-contexts):
 * a screen of context X imports only lib/ and components/ of X's level and below. components/ui/ (the
 * design primitives) is level platform; components/shell/ (the frame of every page) sits above all
 * contexts and none imports it. The screens that still cross, file by file, as KNOWN_CROSSINGS above
 * (tests/lint/walls.test.ts fails on an entry that no longer crosses).
 */
const KNOWN_COMPONENT_CROSSINGS = {
  // The organization picker of the agent consoles lists organizations through the admin console's hook.
  "components/agents/agent-consoles/organization-field.tsx": ["consoles"],
  // The sign-in form shows the seeded demo account (lib/consoles/demo-accounts.ts).
  "components/identity/auth/sign-in-form.tsx": ["consoles"],
  // The phone panel shows a call's detail (a type of lib/receptionist/call-history).
  "components/phone/phone-numbers/phone-panel.tsx": ["receptionist"],
};

/** The contexts a context must not import: those on the levels above its own. */
function above(context) {
  const level = LEVELS.findIndex((names) => names.includes(context));
  if (level < 0) throw new Error(`unknown context: ${context}`);
  return LEVELS.slice(level + 1).flat();
}

/** The context a lib/ file belongs to (lib/<context>/…), or null. */
function contextOf(file) {
  const match = /^lib\/([^/]+)\//.exec(file);
  return match && CONTEXTS.includes(match[1]) ? match[1] : null;
}

/** The context a components/ file belongs to (components/<context>/…; components/ui/ is platform), or null (components/shell/). */
function componentContextOf(file) {
  const match = /^components\/([^/]+)\//.exec(file);
  if (!match) return null;
  if (match[1] === "ui") return "platform";
  return CONTEXTS.includes(match[1]) ? match[1] : null;
}

module.exports = { LEVELS, CONTEXTS, KNOWN_CROSSINGS, KNOWN_COMPONENT_CROSSINGS, above, contextOf, componentContextOf };
