"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import type { PlanId } from "@/lib/workspace/billing/plans";
import type { BillingOverview, BillingTransaction } from "@/lib/workspace/billing/service";
import { fullPageNavigate } from "@/lib/platform/utils";
import type { PublicPlan } from "@/components/workspace/billing/plan-picker";

export type { BillingOverview, BillingTransaction, PublicPlan };

export const OVERVIEW_QUERY_KEY = ["/api/billing/overview"] as const;
export const TRANSACTIONS_QUERY_KEY = ["/api/billing/transactions"] as const;
export const PLANS_QUERY_KEY = ["/api/subscription-plans"] as const;

type TransactionsPage = { items: BillingTransaction[]; nextCursor: string | null };

export function useBillingOverview() {
  return useQuery<BillingOverview>({ queryKey: OVERVIEW_QUERY_KEY });
}

export function usePlans() {
  return useQuery<PublicPlan[]>({ queryKey: PLANS_QUERY_KEY });
}

export function useTransactions() {
  return useInfiniteQuery({
    queryKey: TRANSACTIONS_QUERY_KEY,
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams({ limit: "20" });
      if (pageParam) query.set("cursor", pageParam);
      return (await (await apiRequest("GET", `/api/billing/transactions?${query.toString()}`)).json()) as TransactionsPage;
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}

function useInvalidateBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: OVERVIEW_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY }),
    ]);
}

type CheckoutAnswer = { checkoutUrl?: string };
type PlanAnswer = CheckoutAnswer & { plan?: string; scheduledPlan?: string | null; effectiveAt?: string };

/** POST /api/billing/purchase-credits {credits}: Stripe → its Checkout page; test mode → settled. */
export function usePurchaseCredits() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: async (credits: number) =>
      (await (await apiRequest("POST", "/api/billing/purchase-credits", { credits })).json()) as CheckoutAnswer & { credits?: number },
    onSuccess: async (answer, credits) => {
      if (answer.checkoutUrl) return fullPageNavigate(answer.checkoutUrl);
      toast.success("Credits Purchased", { description: `${credits.toLocaleString("en-US")} credits were added to your balance.` });
      await invalidate();
    },
    onError: (error) => {
      toast.error("Purchase Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

/** POST /api/billing/upgrade-plan {planId}: also "Complete payment" for a trialing plan. */
export function useChangePlan() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: async (plan: { id: PlanId; name: string }) =>
      (await (await apiRequest("POST", "/api/billing/upgrade-plan", { planId: plan.id })).json()) as PlanAnswer,
    onSuccess: async (answer, plan) => {
      if (answer.checkoutUrl) return fullPageNavigate(answer.checkoutUrl);
      if (answer.scheduledPlan) {
        const on = answer.effectiveAt ? new Date(answer.effectiveAt).toLocaleDateString("en-US", { month: "long", day: "numeric" }) : "renewal";
        toast.success("Plan Change Scheduled", { description: `You'll move to the ${plan.name} plan on ${on}, with no charge.` });
      } else if (answer.plan === plan.id) {
        toast.success("Plan Updated", { description: `You're now on the ${plan.name} plan.` });
      }
      await invalidate();
    },
    onError: (error) => {
      toast.error("Upgrade Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

/** POST /api/billing/portal → Stripe's customer portal. */
export function useCustomerPortal() {
  return useMutation({
    mutationFn: async () => (await (await apiRequest("POST", "/api/billing/portal")).json()) as { url: string },
    onSuccess: ({ url }) => fullPageNavigate(url),
    onError: (error) => {
      toast.error("Portal Unavailable", { description: serverMessage(error) ?? error.message });
    },
  });
}

/**
 * Opens a payment's printable invoice in a new tab. The request carries the bearer session like
 * every call; the HTML is shown from a blob URL. The tab is opened first, inside the click, so pop-up
 * blockers allow it.
 */
export async function openInvoice(paymentId: string) {
  const tab = window.open("", "_blank");
  try {
    const res = await apiRequest("GET", `/api/billing/invoices/${encodeURIComponent(paymentId)}`);
    const url = URL.createObjectURL(new Blob([await res.text()], { type: "text/html" }));
    if (tab) tab.location.href = url;
    else window.open(url, "_blank");
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    toast.error("Download Failed", { description: serverMessage(error) ?? "The invoice could not be loaded." });
  }
}
