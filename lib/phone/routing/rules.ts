import type { BusinessHours, BusinessProfile, NumberRouting, RoutingAction, RoutingIntent, RoutingRule } from "@/db/schema";
import { hoursOn, localMoment, openStatus } from "@/lib/knowledge/business-profile/hours";
import { isOpenAt } from "@/lib/phone/numbers/hours";
import type { Intent } from "@/lib/platform/providers/llm/interface";
import { actionWords, ROUTED } from "@/lib/platform/text/routing";

/**
 * Where a call goes, decided from the number's routing (pure, so it is tested without a phone).
 * At arrival: the organization's block list, then the rules in order (intent rules wait for the
 * caller's first words), then the number's mode — ring the business's phone first, or the assistant.
 */

export const DEFAULT_ROUTING: NumberRouting = { mode: "assistant_first", ringTimeoutSeconds: 20, rules: [] };

export type ArrivalContext = {
  routing: NumberRouting | null;
  forwardTo: string | null;
  caller: string;
  now: Date;
  profile: BusinessProfile;
  numberHours: BusinessHours | null;
  onBlockList: boolean;
};

export type Route = {
  action: RoutingAction;
  /** The number a forward rings. */
  to?: string;
  ringTimeoutSeconds?: number;
  because: string;
  /** The 1-based rule that decided, when one did. */
  rule?: number;
};

/** Open at `now`: the business profile's hours and holidays (organization time zone), else the number's own hours; null = no hours set. */
export function openAt(profile: BusinessProfile, numberHours: BusinessHours | null, now: Date): { open: boolean; label: string } | null {
  const status = openStatus(profile, now);
  if (status) return { open: status.openNow, label: status.label };
  if (numberHours) {
    const open = isOpenAt(numberHours, now);
    if (open !== null) return { open, label: open ? "open" : `closed in ${numberHours.timezone}` };
  }
  return null;
}

function holidayAt(profile: BusinessProfile, now: Date): string | null {
  if (!profile.timezone || !profile.holidays?.length) return null;
  const day = hoursOn(profile, localMoment(now, profile.timezone).date);
  return day.holiday ? (day.holiday.name ?? "holiday") : null;
}

function target(rule: RoutingRule, forwardTo: string | null): { action: RoutingAction; to?: string } {
  if (rule.action !== "forward") return { action: rule.action };
  const to = rule.to ?? forwardTo;
  // A forward with nowhere to ring is the assistant (never a dead line).
  return to ? { action: "forward", to } : { action: "assistant" };
}

export function routeArrival(ctx: ArrivalContext): Route {
  if (ctx.onBlockList) return { action: "reject", because: ROUTED.blockList };
  const routing = ctx.routing ?? DEFAULT_ROUTING;
  const ring = routing.ringTimeoutSeconds;
  let hours: ReturnType<typeof openAt> | undefined;
  for (const [i, rule] of routing.rules.entries()) {
    const n = i + 1;
    const t = () => target(rule, ctx.forwardTo);
    switch (rule.condition) {
      case "blocked":
        if (rule.numbers?.includes(ctx.caller)) {
          const x = t();
          return { ...x, ringTimeoutSeconds: ring, rule: n, because: x.action === "reject" ? ROUTED.blockedRule(n) : `${ROUTED.blockedRule(n)}: ${actionWords(x.action, x.to)}` };
        }
        break;
      case "vip":
        if (rule.numbers?.includes(ctx.caller)) {
          const x = t();
          return { ...x, ringTimeoutSeconds: ring, rule: n, because: ROUTED.vip(n, actionWords(x.action, x.to)) };
        }
        break;
      case "holiday": {
        const name = holidayAt(ctx.profile, ctx.now);
        if (name) {
          const x = t();
          return { ...x, ringTimeoutSeconds: ring, rule: n, because: ROUTED.holiday(n, name, actionWords(x.action, x.to)) };
        }
        break;
      }
      case "after_hours": {
        hours ??= openAt(ctx.profile, ctx.numberHours, ctx.now);
        if (hours && !hours.open) {
          const x = t();
          return { ...x, ringTimeoutSeconds: ring, rule: n, because: ROUTED.afterHours(n, hours.label, actionWords(x.action, x.to)) };
        }
        break;
      }
      case "always": {
        const x = t();
        return { ...x, ringTimeoutSeconds: ring, rule: n, because: ROUTED.always(n, actionWords(x.action, x.to)) };
      }
      case "intent":
        break; // decided once the caller says what they want (routeIntent)
    }
  }
  if (routing.mode === "ring_first" && ctx.forwardTo) {
    return { action: "forward", to: ctx.forwardTo, ringTimeoutSeconds: ring, because: ROUTED.ringFirst(ctx.forwardTo, ring) };
  }
  return { action: "assistant", because: ROUTED.assistantFirst };
}

const BILLING = /\b(bill|billing|billed|invoice|invoices|charge|charged|charges|refund|payment|pay my|receipt)\b/i;
const SALES = /\b(buy|purchase|quote|estimate|price|prices|pricing|cost|sales|order)\b/i;
const SUPPORT = /\b(broken|not working|doesn't work|problem|issue|support|repair|fix|complaint|help with)\b/i;

/** sales, support or billing from what the caller said (and the model's intent), or null. */
export function routingIntentOf(text: string, intent: Intent | null): RoutingIntent | null {
  if (BILLING.test(text)) return "billing";
  if (intent === "pricing" || intent === "order" || SALES.test(text)) return "sales";
  if (intent === "complaint" || SUPPORT.test(text)) return "support";
  return null;
}

/** The first intent rule for what the caller wants, or null (the assistant goes on). */
export function routeIntent(routing: NumberRouting | null, forwardTo: string | null, text: string, intent: Intent | null): Route | null {
  const wanted = routingIntentOf(text, intent);
  if (!wanted || !routing) return null;
  for (const [i, rule] of routing.rules.entries()) {
    if (rule.condition !== "intent" || rule.intent !== wanted) continue;
    const x = target(rule, forwardTo);
    if (x.action === "reject") continue;
    return { ...x, ringTimeoutSeconds: routing.ringTimeoutSeconds, rule: i + 1, because: ROUTED.intent(i + 1, wanted, actionWords(x.action, x.to)) };
  }
  return null;
}
