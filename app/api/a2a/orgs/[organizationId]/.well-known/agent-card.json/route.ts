import { orgAgentCardResponse } from "@/lib/agents/a2a/agent/handler";
import { publicRoute } from "@/lib/identity/http/route";

/** The organization's agent card (A2A v1.0 §8.2). */
export const GET = publicRoute(async (_req, { db, params }) => orgAgentCardResponse(db, params.organizationId));
