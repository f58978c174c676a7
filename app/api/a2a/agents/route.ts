import { createAgentInput } from "@/lib/a2a/schema";
import { createAgent, listAgents } from "@/lib/a2a/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

/** The A2A console's agents (advanced §7 A2A; polled every 10 s). */
export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx }) => ({ agents: await listAgents(db, ctx) }));

export const POST = authedRoute({ permission: "a2a.manage" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAgentInput);
  return json(await createAgent(db, ctx, input), { status: 201 });
});
