/**
 * Plans and credit packs (advanced spec §9): the one place prices, credits and limits live.
 * -1 means unlimited.
 */
export type PlanId = "free" | "pro" | "enterprise";

export type Plan = {
  id: PlanId;
  name: string;
  /** US dollars per month. */
  price: number;
  /** Credits granted per billing period; -1 = unlimited. */
  creditsIncluded: number;
  /** Credits granted at signup. */
  initialCredits: number;
  limits: { phoneNumbers: number; assistants: number };
  features: string[];
};

export const plans: readonly Plan[] = [
  {
    id: "free",
    name: "Free",
    price: 0,
    creditsIncluded: 100,
    initialCredits: 100,
    limits: { phoneNumbers: 1, assistants: 1 },
    features: ["1 phone number", "1 voice assistant", "100 credits per month", "Call history and summaries"],
  },
  {
    id: "pro",
    name: "Pro",
    price: 49,
    creditsIncluded: 1000,
    initialCredits: 1000,
    limits: { phoneNumbers: 5, assistants: 10 },
    features: ["5 phone numbers", "10 voice assistants", "1,000 credits per month", "Integrations and webhooks", "Daily recaps"],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: 199,
    creditsIncluded: -1,
    initialCredits: 10000,
    limits: { phoneNumbers: -1, assistants: -1 },
    features: ["Unlimited phone numbers", "Unlimited voice assistants", "Unlimited credits", "Priority support"],
  },
];

export function getPlan(id: PlanId): Plan {
  const plan = plans.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

export type CreditPack = { credits: number; price: number; bonus: number };

export const creditPacks: readonly CreditPack[] = [
  { credits: 500, price: 15, bonus: 50 },
  { credits: 1000, price: 25, bonus: 150 },
  { credits: 2500, price: 50, bonus: 500 },
  { credits: 5000, price: 90, bonus: 1000 },
];

export const planIds = ["free", "pro", "enterprise"] as const;

export type SubscriptionStatus = "active" | "trialing" | "past_due" | "suspended" | "cancelled";

/**
 * The tier whose limits apply (docs/billing.md, trial rule): the subscribed tier once it is paid
 * ("active"), otherwise Free — a Pro or Enterprise signup that has not paid yet gets Free's limits.
 */
export function effectiveTier(org: { subscriptionTier: PlanId; subscriptionStatus: string }): PlanId {
  return org.subscriptionStatus === "active" ? org.subscriptionTier : "free";
}

/** A pack's total credits (what POST /api/billing/purchase-credits receives). */
export function packTotal(pack: CreditPack): number {
  return pack.credits + pack.bonus;
}

/** The pack whose credits plus bonus equal `credits`, if any. */
export function findPackByTotal(credits: number): CreditPack | undefined {
  return creditPacks.find((p) => packTotal(p) === credits);
}
