import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { getRecapSettings, updateRecapSettings } from "@/lib/receptionist/recaps";
import { recapSettingsInput } from "@/lib/receptionist/schema";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => getRecapSettings(db, ctx.organizationId));

/** PUT /api/recaps/settings {enabled?, localTime?: "HH:MM"} */
export const PUT = authedRoute({ permission: "business.write" }, async (req, { db, ctx }) =>
  updateRecapSettings(db, ctx.organizationId, await parseJsonBody(req, recapSettingsInput)),
);
