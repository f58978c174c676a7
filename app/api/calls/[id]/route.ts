import { getDb } from "@/db/client";
import { getCallDetail } from "@/lib/call-history/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "calls.read" }, async (_req, { ctx, params }) =>
  getCallDetail(await getDb(), ctx.organizationId, params.id),
);
