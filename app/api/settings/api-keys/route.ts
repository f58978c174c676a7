import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { getApiKeys, saveApiKeys } from "@/lib/workspace/settings/api-keys";
import { apiKeysInput } from "@/lib/workspace/settings/schema";

/** Organization-wide provider keys: status only, never the secrets. */
export const GET = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx }) =>
  getApiKeys(db, ctx.organizationId),
);

export const PUT = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, apiKeysInput);
  return saveApiKeys(db, ctx.organizationId, ctx.userId, input);
});
