import { getDb } from "@/db/client";
import { authedRoute } from "@/lib/http/route";
import { deleteApiKey } from "@/lib/settings/api-keys";

export const DELETE = authedRoute({ permission: "settings.write" }, async (_req, { ctx, params }) => {
  await deleteApiKey(await getDb(), ctx.organizationId, params.provider);
  return { success: true };
});
