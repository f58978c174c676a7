import { authedRoute } from "@/lib/identity/http/route";
import { getKnowledgeGap } from "@/lib/knowledge/gaps/service";

export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx, params }) => getKnowledgeGap(db, ctx.organizationId, params.id));
