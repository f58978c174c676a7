import { crmTestInput } from "@/lib/reports/crm-voice/schema";
import { runCrmTest } from "@/lib/reports/crm-voice/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "crm.manage" }, async (req, { db, ctx }) => runCrmTest(db, ctx, await parseJsonBody(req, crmTestInput)));
