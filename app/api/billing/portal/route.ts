import { openCustomerPortal } from "@/lib/billing/service";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (_req, { db, ctx }) =>
  openCustomerPortal(db, ctx.organizationId),
);
