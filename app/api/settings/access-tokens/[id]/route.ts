import { revokeAccessToken } from "@/lib/identity/access-tokens/service";
import { authedRoute } from "@/lib/identity/http/route";

/** Revokes a token: the MCP server answers 401 to it from the next request on. */
export const DELETE = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx, params }) => {
  await revokeAccessToken(db, ctx.organizationId, params.id);
  return { success: true };
});
