import { purchaseCreditsInput } from "@/lib/billing/schema";
import { purchaseCredits } from "@/lib/billing/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (req, { db, ctx }) => {
  const { credits } = await parseJsonBody(req, purchaseCreditsInput);
  return purchaseCredits(db, ctx, credits);
});
