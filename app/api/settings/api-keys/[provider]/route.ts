import { authedRoute } from "@/lib/identity/http/route";
import { deleteApiKey } from "@/lib/workspace/settings/api-keys";

export const DELETE = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx, params }) => {
  await deleteApiKey(db, ctx.organizationId, params.provider);
  return { success: true };
});
