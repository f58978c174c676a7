import { createAccessToken, listAccessTokens } from "@/lib/identity/access-tokens/service";
import { createAccessTokenInput } from "@/lib/identity/access-tokens/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

/** The organization's access tokens for Switchboard's MCP server (docs/api.md#access-tokens). */
export const GET = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx }) => listAccessTokens(db, ctx.organizationId));

export const POST = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAccessTokenInput);
  const created = await createAccessToken(db, ctx, input);
  return json(created, { status: 201 });
});
