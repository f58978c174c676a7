import { businessProfileInput } from "@/lib/knowledge/business-profile/schema";
import { getBusinessProfile, updateBusinessProfile } from "@/lib/knowledge/business-profile/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx }) => getBusinessProfile(db, ctx.organizationId));

export const PUT = authedRoute({ permission: "business.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, businessProfileInput);
  return updateBusinessProfile(db, ctx.organizationId, input);
});
