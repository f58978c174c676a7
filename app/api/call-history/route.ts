import { parseQuery } from "@/lib/platform/http/parse";
import { historyQuery } from "@/lib/receptionist/call-history/schema";
import { listHistory } from "@/lib/receptionist/call-history/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "calls.read" }, async (req, { db, ctx }) =>
  listHistory(db, ctx.organizationId, parseQuery(req, historyQuery)),
);
