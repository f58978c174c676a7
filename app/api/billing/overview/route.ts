import { getBillingOverview } from "@/lib/workspace/billing/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "billing.read" }, async (_req, { db, ctx }) =>
  getBillingOverview(db, ctx.organizationId),
);
