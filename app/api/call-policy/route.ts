import { authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { callPolicyView, updateCallPolicy } from "@/lib/phone/routing/policy";
import { callPolicyInput } from "@/lib/phone/routing/schema";

/** The organization's spam threshold and action, report sharing, and monthly credit cap (with this month's usage). */
export const GET = authedRoute({ permission: "phone_numbers.read" }, async (_req, { db, ctx }) => callPolicyView(db, ctx.organizationId));

export const PUT = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, callPolicyInput);
  return updateCallPolicy(db, ctx.organizationId, input);
});
