import { z } from "zod";
import { pageQuery } from "@/lib/platform/http/pagination";
import { creditPacks, findPackByTotal, packTotal, planIds } from "./plans";

const packTotals = creditPacks.map(packTotal).join(", ");

/** POST /api/billing/purchase-credits: `credits` is a pack's credits plus its bonus (advanced spec §9). */
export const purchaseCreditsInput = z.object({
  credits: z
    .number({ error: "Credits must be a number" })
    .int("Credits must be a whole number")
    .refine((v) => findPackByTotal(v) !== undefined, { message: `Choose a credit pack: ${packTotals} credits` }),
});
export type PurchaseCreditsInput = z.infer<typeof purchaseCreditsInput>;

/** POST /api/billing/upgrade-plan. */
export const upgradePlanInput = z.object({
  planId: z.enum(planIds, { error: "Choose a plan: free, pro or enterprise" }),
});
export type UpgradePlanInput = z.infer<typeof upgradePlanInput>;

/** GET /api/billing/transactions?cursor=&limit= */
export const transactionsQuery = pageQuery(20, 100);
export type TransactionsQuery = z.infer<typeof transactionsQuery>;
