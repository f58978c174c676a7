import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { listGapsQuery } from "@/lib/knowledge/gaps/schema";
import { listKnowledgeGaps } from "@/lib/knowledge/gaps/service";

export const GET = authedRoute({ permission: "business.read" }, async (req, { db, ctx }) =>
  listKnowledgeGaps(db, ctx.organizationId, parseQuery(req, listGapsQuery)),
);
