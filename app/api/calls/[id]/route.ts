import { getCallDetail } from "@/lib/call-history/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "calls.read" }, async (_req, { db, ctx, params }) =>
  getCallDetail(db, ctx.organizationId, params.id),
);
