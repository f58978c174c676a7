import { createAgentInput } from "@/lib/agents/a2a/schema";
import { createAgent, listAgents } from "@/lib/agents/a2a/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

/** The A2A console's agents (advanced §7 A2A; polled every 10 s). */
export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx }) => ({ agents: await listAgents(db, ctx) }));

export const POST = authedRoute({ permission: "a2a.manage" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAgentInput);
  return json(await createAgent(db, ctx, input), { status: 201 });
});
