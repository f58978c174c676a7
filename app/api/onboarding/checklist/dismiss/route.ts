import { authedRoute } from "@/lib/identity/http/route";
import { dismissSetupChecklist } from "@/lib/consoles/onboarding/checklist";

/** Closes the setup checklist for the organization (idempotent). */
export const POST = authedRoute({ permission: "settings.write" }, async (_req, { db, ctx }) =>
  dismissSetupChecklist(db, ctx.organizationId),
);
