import { getCrmHealth } from "@/lib/crm-voice/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "crm.manage" }, async (_req, { db }) => getCrmHealth(db));
