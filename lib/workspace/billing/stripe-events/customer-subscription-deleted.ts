import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { SubscriptionDeletedEvent } from "@/lib/platform/providers/payments/events";
import { ONE_MONTH, recordEvent, type FulfilResult } from "../fulfilment";

/** customer.subscription.deleted: the organization that held it goes back to Free at once. */
export async function handleSubscriptionDeleted(db: Db, event: SubscriptionDeletedEvent, scope: { organizationId?: string } = {}): Promise<FulfilResult> {
  const subscriptionId = event.data.object.id;
  return db.transaction(async (tx) => {
    const fresh = await recordEvent(tx, "stripe", event);
    if (!fresh) return { outcome: "duplicate" as const };
    const conditions = [eq(organizations.stripeSubscriptionId, subscriptionId)];
    if (scope.organizationId) conditions.push(eq(organizations.id, scope.organizationId));
    const updated = await tx
      .update(organizations)
      .set({
        subscriptionTier: "free",
        scheduledTier: null,
        subscriptionStatus: "active",
        stripeSubscriptionId: null,
        currentPeriodStart: sql`now()`,
        currentPeriodEnd: ONE_MONTH,
        updatedAt: new Date(),
      })
      .where(and(...conditions))
      .returning({ id: organizations.id });
    return { outcome: updated.length ? ("fulfilled" as const) : ("ignored" as const) };
  });
}

