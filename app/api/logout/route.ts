import { clearSessionCookie } from "@/lib/identity/auth/responses";
import { signOut } from "@/lib/identity/auth/service";
import { isSameOriginNavigation } from "@/lib/platform/http/origin";
import { publicRoute } from "@/lib/identity/http/route";
import { redirectToPath } from "@/lib/platform/http/redirect";

/**
 * Browser navigation from the header's Sign Out: ends the session (cookie or bearer) and goes to the
 * landing page. Only a navigation from one of our own pages may do that: a link or image on another
 * site pointing here just lands on "/" with the session untouched (docs/security.md).
 */
export const GET = publicRoute(async (req, { db }) => {
  const home = redirectToPath("/");
  if (!isSameOriginNavigation(req)) return home;
  await signOut(db, req.headers);
  return clearSessionCookie(home);
});
