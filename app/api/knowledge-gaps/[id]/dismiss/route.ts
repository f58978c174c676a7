import { authedRoute } from "@/lib/identity/http/route";
import { dismissKnowledgeGap } from "@/lib/knowledge/gaps/service";

export const POST = authedRoute({ permission: "business.write" }, async (_req, { db, ctx, params }) =>
  dismissKnowledgeGap(db, ctx.organizationId, params.id),
);
