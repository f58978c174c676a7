import { authedRoute } from "@/lib/http/route";
import { deleteApiKey } from "@/lib/settings/api-keys";

export const DELETE = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx, params }) => {
  await deleteApiKey(db, ctx.organizationId, params.provider);
  return { success: true };
});
