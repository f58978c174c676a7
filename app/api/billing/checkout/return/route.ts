import { confirmCheckoutReturn } from "@/lib/workspace/billing/service";
import { publicRoute } from "@/lib/identity/http/route";
import { redirectToPath } from "@/lib/platform/http/redirect";

/**
 * Stripe Checkout's success_url. Public: it trusts only what the Stripe API says about the session,
 * and answers with a redirect to /billing?checkout=success|pending|unknown.
 */
export const GET = publicRoute(async (req, { db }) => {
  const sessionId = new URL(req.url).searchParams.get("session_id");
  const target = await confirmCheckoutReturn(db, sessionId);
  return redirectToPath(target);
});
