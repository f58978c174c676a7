import { getPlan, type PlanId } from "./plans";

/**
 * What Stripe charges for switching from `fromCents` to `toCents` a month at `at` within the period:
 * the unused time of the old price is credited and the remaining time of the new one charged, per
 * second, rounded to the cent (Stripe's proration; https://docs.stripe.com/billing/subscriptions/prorations).
 */
export function prorationCents(fromCents: number, toCents: number, period: { start: Date; end: Date }, at = new Date()): number {
  const total = period.end.getTime() - period.start.getTime();
  if (total <= 0) return 0;
  const remaining = Math.min(Math.max(period.end.getTime() - at.getTime(), 0), total);
  return Math.max(Math.round(((toCents - fromCents) * remaining) / total), 0);
}

export function isUpgrade(from: PlanId, to: PlanId): boolean {
  return getPlan(to).price > getPlan(from).price;
}
