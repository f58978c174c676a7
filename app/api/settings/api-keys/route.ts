import { getDb } from "@/db/client";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { getApiKeys, saveApiKeys } from "@/lib/settings/api-keys";
import { apiKeysInput } from "@/lib/settings/schema";

/** Organization-wide provider keys: status only, never the secrets. */
export const GET = authedRoute({ permission: "settings.write" }, async (_req, { ctx }) =>
  getApiKeys(await getDb(), ctx.organizationId),
);

export const PUT = authedRoute({ permission: "settings.write" }, async (req, { ctx }) => {
  const input = await parseJsonBody(req, apiKeysInput);
  return saveApiKeys(await getDb(), ctx.organizationId, ctx.userId, input);
});
