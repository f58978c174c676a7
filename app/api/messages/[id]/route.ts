import { getMessageDetail } from "@/lib/receptionist/call-history/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "messages.read" }, async (_req, { db, ctx, params }) =>
  getMessageDetail(db, ctx.organizationId, params.id),
);
