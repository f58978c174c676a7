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
 */
const KNOWN_CROSSINGS = {
  "lib/agents/conversation/engine.ts": ["receptionist"],
  "lib/agents/conversation/model-tools.ts": ["receptionist"],
  "lib/agents/conversation/turn.ts": ["receptionist"],
  "lib/channels/mcp/tools/calls.ts": ["receptionist"],
  "lib/channels/mcp/tools/dashboard.ts": ["reports"],
  "lib/channels/mcp/tools/messages.ts": ["receptionist"],
  "lib/identity/auth/password-reset-mail.ts": ["receptionist"],
  "lib/identity/auth/session.ts": ["compliance"],
  "lib/phone/messages/send-text.ts": ["receptionist"],
  "lib/channels/phone-line/relay/gateway.ts": ["receptionist"],
  "lib/channels/phone-line/sms.ts": ["integrations", "receptionist"],
  "lib/channels/phone-line/voice/decide.ts": ["receptionist"],
  "lib/channels/phone-line/voice/gather.ts": ["receptionist"],
  "lib/channels/phone-line/voice/greet.ts": ["receptionist"],
  "lib/channels/phone-line/voice/post-call.ts": ["integrations", "receptionist", "reports"],
  "lib/platform/crypto/secret-box.ts": ["identity"],
  "lib/platform/database.ts": ["identity"],
  "lib/identity/http/route.ts": ["identity"],
  "lib/receptionist/follow-up.ts": ["integrations"],
  "lib/platform/outbound/mail.ts": ["integrations"],
  "lib/receptionist/recaps.ts": ["integrations"],
  "lib/phone/callers/tasks.ts": ["integrations"],
  "lib/reports/analytics/reports.ts": ["consoles"],
  "lib/scheduling/notifications.ts": ["integrations"],
  "lib/workspace/billing/service.ts": ["reports"],
  "lib/workspace/provider-selection/calendar.ts": ["integrations"],
  "lib/workspace/provider-selection/credentials.ts": ["compliance"],
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

module.exports = { LEVELS, CONTEXTS, KNOWN_CROSSINGS, above, contextOf };
