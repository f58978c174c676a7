import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { answerGapInput } from "@/lib/knowledge/gaps/schema";
import { answerKnowledgeGap } from "@/lib/knowledge/gaps/service";

/** POST /api/knowledge-gaps/{id}/answer {answer, question?}: the answer becomes an FAQ of the business profile. */
export const POST = authedRoute({ permission: "business.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, answerGapInput);
  return answerKnowledgeGap(db, ctx.organizationId, params.id, input, ctx.userId);
});
