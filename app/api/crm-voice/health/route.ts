import { getCrmHealth } from "@/lib/reports/crm-voice/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "crm.manage" }, async (_req, { db }) => getCrmHealth(db));
