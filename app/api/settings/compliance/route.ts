import { complianceSettingsFor, updateComplianceSettings } from "@/lib/compliance/settings";
import { complianceSettingsInput } from "@/lib/compliance/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** The organization's notice, business state and HIPAA switches (docs/compliance.md). */
export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx }) => complianceSettingsFor(db, ctx.organizationId));

export const PUT = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, complianceSettingsInput);
  return updateComplianceSettings(db, ctx.organizationId, ctx.userId, input);
});
