import { checkAgent, getAgent } from "@/lib/agents/a2a/service";
import { authedRoute } from "@/lib/identity/http/route";

/** Fetches and validates the agent's card now and answers the agent. */
export const POST = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx, params }) => {
  const agent = await getAgent(db, ctx, params.id);
  await checkAgent(db, agent.id);
  return getAgent(db, ctx, agent.id);
});
