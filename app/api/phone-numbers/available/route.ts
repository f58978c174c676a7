import { authedRoute } from "@/lib/identity/http/route";
import { parseQuery } from "@/lib/platform/http/parse";
import { searchAvailableQuery } from "@/lib/phone/numbers/schema";
import { searchAvailableNumbers } from "@/lib/phone/numbers/service";

export const GET = authedRoute({ permission: "phone_numbers.read" }, async (req, { db, ctx }) =>
  searchAvailableNumbers(db, ctx.organizationId, parseQuery(req, searchAvailableQuery)),
);
