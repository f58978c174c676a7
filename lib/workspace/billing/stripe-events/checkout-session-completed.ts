import "server-only";
import type { Db } from "@/db/client";
import type { CheckoutCompletedEvent } from "@/lib/platform/providers/payments/events";
import { fulfilPayment, type FulfilResult } from "../fulfilment";

/**
 * checkout.session.completed and checkout.session.async_payment_succeeded: the payment named in
 * the session's metadata is settled by the one fulfilment function the simulated processor uses too.
 */
export function handleCheckoutSessionCompleted(db: Db, event: CheckoutCompletedEvent, scope: { organizationId?: string } = {}): Promise<FulfilResult> {
  return fulfilPayment(db, event, scope);
}
