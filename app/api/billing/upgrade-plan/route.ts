import { upgradePlanInput } from "@/lib/workspace/billing/schema";
import { changePlan } from "@/lib/workspace/billing/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (req, { db, ctx }) => {
  const { planId } = await parseJsonBody(req, upgradePlanInput);
  return changePlan(db, ctx, planId);
});
