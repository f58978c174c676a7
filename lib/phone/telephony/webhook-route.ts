import "server-only";
import type { Db } from "@/db/client";
import { publicRoute } from "@/lib/identity/http/route";
import { readCarrierRequest, type CarrierRequest } from "./webhook";

/**
 * A carrier webhook route (app/api/telephony/**): public (the carrier signs it instead of a session),
 * its form body read once as the carrier sent it; the handler verifies the signature against the
 * account of the number or call it is about (lib/phone/telephony/webhook.ts) before it writes anything.
 */
export function carrierWebhookRoute(handle: (db: Db, carrier: CarrierRequest, req: Request) => Promise<Response | object>) {
  return publicRoute(async (req, { db }) => handle(db, await readCarrierRequest(req), req));
}
