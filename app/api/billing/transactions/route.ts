import { transactionsQuery } from "@/lib/billing/schema";
import { listTransactions } from "@/lib/billing/service";
import { parseQuery } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "billing.read" }, async (req, { db, ctx }) =>
  listTransactions(db, ctx.organizationId, parseQuery(req, transactionsQuery)),
);
