import { handleOrgAgentRequest, orgAgentCardResponse } from "@/lib/agents/a2a/agent/handler";
import { publicRoute } from "@/lib/identity/http/route";

/**
 * An organization as an A2A agent (A2A v1.0 JSON-RPC; docs/a2a.md). Public like a phone number:
 * any agent may ask a question or leave a message; requests are rate-limited.
 */
export const POST = publicRoute(async (req, { db, params }) => handleOrgAgentRequest(db, req, params.organizationId));

/** The agent card, also at …/.well-known/agent-card.json. */
export const GET = publicRoute(async (_req, { db, params }) => orgAgentCardResponse(db, params.organizationId));
