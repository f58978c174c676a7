import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { retentionInput } from "@/lib/compliance/retention/schema";
import { getRetention, listRetentionDeletions, saveRetention } from "@/lib/compliance/retention/service";

/**
 * How long the organization keeps recordings, transcripts, texts and its speech cache
 * (docs/api.md#retention). Owners and admins (settings.write); the answer carries the latest deletions.
 */
export const GET = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx }) => ({
  ...(await getRetention(db, ctx.organizationId)),
  deletions: await listRetentionDeletions(db, ctx.organizationId, 20),
}));

export const PUT = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, retentionInput);
  return saveRetention(db, ctx, input);
});
