import { adjustCreditsInput } from "@/lib/consoles/admin/schema";
import { adjustCredits } from "@/lib/consoles/admin/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "admin.credits.adjust" }, async (req, { db, ctx }) =>
  adjustCredits(db, ctx, await parseJsonBody(req, adjustCreditsInput)),
);
