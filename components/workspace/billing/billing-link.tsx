"use client";

import Link from "next/link";
import { toast } from "sonner";
import { fullPageNavigate } from "@/lib/platform/utils";

/** Server messages that send the owner to Billing ("Upgrade to Pro … in Billing", "Buy a credit pack …"). */
export function mentionsBilling(message: string | null | undefined): boolean {
  return Boolean(message && /\bin Billing\b|credit pack|upgrade your plan/i.test(message));
}

/** An error toast whose message names Billing gets a button that opens it. */
export function errorToast(title: string, description: string | undefined | null) {
  toast.error(title, {
    ...(description ? { description } : {}),
    ...(mentionsBilling(description)
      ? { action: { label: "Open Billing & Credits", onClick: () => fullPageNavigate("/billing") } }
      : {}),
  });
}

/** Inline link for a message on the page. */
export function BillingLink({ children = "Billing & Credits" }: { children?: React.ReactNode }) {
  return (
    <Link href="/billing" className="font-medium text-primary underline underline-offset-4" data-testid="billing-link">
      {children}
    </Link>
  );
}
