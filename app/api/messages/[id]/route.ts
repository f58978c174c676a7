import { getDb } from "@/db/client";
import { getMessageDetail } from "@/lib/call-history/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "messages.read" }, async (_req, { ctx, params }) =>
  getMessageDetail(await getDb(), ctx.organizationId, params.id),
);
