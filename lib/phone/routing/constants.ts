/** Routing vocabulary, free of server imports, for the schema and the forms (db/schema/routing.ts stores the same words). */

/**
 * A number's routing (phone_number.routing, docs/telephony.md#routing): how a call is first
 * offered (the assistant, or the business's own phone ringing first), and the rules evaluated in
 * order before that default.
 */
export const routingConditions = ["blocked", "vip", "after_hours", "holiday", "intent", "always"] as const;
export type RoutingCondition = (typeof routingConditions)[number];
export const routingActions = ["assistant", "forward", "voicemail", "reject"] as const;
export type RoutingAction = (typeof routingActions)[number];
export const routingIntents = ["sales", "support", "billing"] as const;
export type RoutingIntent = (typeof routingIntents)[number];

export type RoutingRule = {
  condition: RoutingCondition;
  action: RoutingAction;
  /** The number a "forward" rings. */
  to?: string | null;
  /** For "vip" and "blocked": the callers it names (E.164). */
  numbers?: string[];
  /** For "intent": what the caller wants. */
  intent?: RoutingIntent;
};

export type NumberRouting = {
  /** assistant_first: the assistant answers and transfers on request; ring_first: the forward-to number rings, then the assistant. */
  mode: "assistant_first" | "ring_first";
  ringTimeoutSeconds: number;
  rules: RoutingRule[];
};

// The stored types (db/schema/routing.ts) and these must stay the same words: a compile-time check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const routingVocabularyMatchesDb: Same<NumberRouting, import("@/db/schema/routing").NumberRouting> = true;
