import { updateBookingSettingsInput } from "@/lib/scheduling/schema";
import { bookingSettingsView, updateBookingSettings } from "@/lib/scheduling/settings";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx }) => bookingSettingsView(db, ctx.organizationId));

export const PATCH = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, updateBookingSettingsInput);
  return updateBookingSettings(db, ctx.organizationId, input);
});
