import { openCustomerPortal } from "@/lib/workspace/billing/service";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "billing.write" }, async (_req, { db, ctx }) =>
  openCustomerPortal(db, ctx.organizationId),
);
