import { deleteAgent, getAgent } from "@/lib/agents/a2a/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx, params }) => getAgent(db, ctx, params.id));

export const DELETE = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx, params }) => {
  await deleteAgent(db, ctx, params.id);
  return { success: true };
});
