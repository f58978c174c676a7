import { getBillingOverview } from "@/lib/billing/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "billing.read" }, async (_req, { db, ctx }) =>
  getBillingOverview(db, ctx.organizationId),
);
