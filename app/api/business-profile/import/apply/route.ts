import { applyImportInput } from "@/lib/knowledge/business-profile/facts";
import { applyImportedFacts } from "@/lib/knowledge/business-profile/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** POST /api/business-profile/import/apply {facts}: the facts the owner confirmed become the profile's. */
export const POST = authedRoute({ permission: "business.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, applyImportInput);
  return applyImportedFacts(db, ctx.organizationId, input.facts);
});
