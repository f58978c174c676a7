import { parseQuery } from "@/lib/http/parse";
import { historyQuery } from "@/lib/call-history/schema";
import { listHistory } from "@/lib/call-history/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "calls.read" }, async (req, { db, ctx }) =>
  listHistory(db, ctx.organizationId, parseQuery(req, historyQuery)),
);
