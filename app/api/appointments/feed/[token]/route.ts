import { icsFeed } from "@/lib/scheduling/feed";
import { notFound } from "@/lib/platform/http/errors";
import { publicRoute } from "@/lib/identity/http/route";

/** The private calendar feed: the token in the URL is the only key (Settings → Calendar shows it). */
export const GET = publicRoute(async (_req, { db, params }) => {
  const token = params.token.replace(/\.ics$/i, "");
  const body = await icsFeed(db, token);
  if (body === null) throw notFound("Calendar feed");
  return new Response(body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'inline; filename="appointments.ics"',
      "cache-control": "private, max-age=300",
      "x-robots-tag": "noindex",
    },
  });
});
