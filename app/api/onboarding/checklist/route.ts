import { authedRoute } from "@/lib/identity/http/route";
import { getSetupChecklist } from "@/lib/consoles/onboarding/checklist";

/** The dashboard's setup checklist, computed from the organization's data. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => getSetupChecklist(db, ctx.organizationId));
