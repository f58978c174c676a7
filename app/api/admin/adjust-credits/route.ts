import { adjustCreditsInput } from "@/lib/admin/schema";
import { adjustCredits } from "@/lib/admin/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "admin.credits.adjust" }, async (req, { db, ctx }) =>
  adjustCredits(db, ctx, await parseJsonBody(req, adjustCreditsInput)),
);
