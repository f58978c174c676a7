import { crmTestInput } from "@/lib/crm-voice/schema";
import { runCrmTest } from "@/lib/crm-voice/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "crm.manage" }, async (req, { db, ctx }) => runCrmTest(db, ctx, await parseJsonBody(req, crmTestInput)));
