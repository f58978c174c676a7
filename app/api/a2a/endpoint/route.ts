import { A2A_PROTOCOL_VERSION } from "@a2a-js/sdk";
import { orgAgentCardUrl, orgAgentUrl } from "@/lib/agents/a2a/agent/card";
import { orgAgentSkills } from "@/lib/agents/a2a/agent/skills";
import { authedRoute } from "@/lib/identity/http/route";

/** Where other agents reach the caller's organization (the Monitor tab). */
export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { ctx }) => ({
  url: orgAgentUrl(ctx.organizationId),
  cardUrl: orgAgentCardUrl(ctx.organizationId),
  protocolVersion: A2A_PROTOCOL_VERSION,
  protocolBinding: "JSONRPC",
  streaming: true,
  skills: orgAgentSkills.map(({ id, name, description }) => ({ id, name, description })),
}));
