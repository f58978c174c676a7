import { upgradePlanInput } from "@/lib/billing/schema";
import { changePlan } from "@/lib/billing/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (req, { db, ctx }) => {
  const { planId } = await parseJsonBody(req, upgradePlanInput);
  return changePlan(db, ctx, planId);
});
