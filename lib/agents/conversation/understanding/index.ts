/**
 * Caller understanding: pure and offline. `understand()` reads one utterance; `resolveWhen()` and
 * `formatWhen()` are the one place spoken days are read and read back (the engine's tools use the
 * same functions). See docs/conversation-understanding.md.
 */
export { understand, warmUp } from "./understand";
export { resolveWhen, formatWhen } from "./when";
export { detectLanguage } from "./language";
export { extractPhone, extractName, matchService, matchPerson } from "./entities";
export type { CallerIntent, Language, SpokenWhen, Understanding, UnderstandingContext } from "./types";
