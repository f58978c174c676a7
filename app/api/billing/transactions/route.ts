import { transactionsQuery } from "@/lib/workspace/billing/schema";
import { listTransactions } from "@/lib/workspace/billing/service";
import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "billing.read" }, async (req, { db, ctx }) =>
  listTransactions(db, ctx.organizationId, parseQuery(req, transactionsQuery)),
);
