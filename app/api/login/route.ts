import { clearSessionCookie } from "@/lib/identity/auth/responses";
import { RETURN_TO_PARAM, safeReturnPath, withReturnTo } from "@/lib/identity/auth/return-to";
import { publicRoute } from "@/lib/identity/http/route";
import { redirectToPath } from "@/lib/platform/http/redirect";

/**
 * Browser navigation: signed in → the asked-for page (`?next=`, same-site paths only) or /dashboard;
 * otherwise (stale cookie cleared) → /auth, carrying `next` along.
 */
export const GET = publicRoute({ session: "optional" }, async (req, { session }) => {
  const next = safeReturnPath(new URL(req.url).searchParams.get(RETURN_TO_PARAM));
  if (session) return redirectToPath(next ?? "/dashboard");
  return clearSessionCookie(redirectToPath(withReturnTo("/auth", next)));
});
