import { purchaseCreditsInput } from "@/lib/workspace/billing/schema";
import { purchaseCredits } from "@/lib/workspace/billing/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (req, { db, ctx }) => {
  const { credits } = await parseJsonBody(req, purchaseCreditsInput);
  return purchaseCredits(db, ctx, credits);
});
