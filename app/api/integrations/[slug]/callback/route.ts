import { NextResponse } from "next/server";
import { env } from "@/lib/platform/env";
import { HttpError } from "@/lib/platform/http/errors";
import { authedRoute } from "@/lib/identity/http/route";
import { completeOAuth } from "@/lib/channels/integrations/oauth";
import { requireEntry } from "@/lib/channels/integrations/service";

/**
 * GET /api/integrations/{slug}/callback?code&state — where the provider sends the browser back (the
 * redirect URL to register with each provider, docs/integrations.md). The state must be this user's
 * and organization's, unused and unexpired; then the code is exchanged and the browser goes back to
 * the integrations screen with `connected=<slug>` or `error=<message>`.
 */
export const GET = authedRoute({ permission: "integrations.write" }, async (req, { db, ctx, params }) => {
  const entry = requireEntry(params.slug);
  const query = new URL(req.url).searchParams;
  const back = new URL("/integrations", env.PUBLIC_URL);
  try {
    await completeOAuth(db, ctx, entry, { code: query.get("code"), state: query.get("state"), error: query.get("error") });
    back.searchParams.set("connected", entry.slug);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    back.searchParams.set("error", error.message);
    back.searchParams.set("integration", entry.slug);
  }
  return NextResponse.redirect(back, 303);
});
