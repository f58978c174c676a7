import { updateBookingSettingsInput } from "@/lib/appointments/schema";
import { bookingSettingsView, updateBookingSettings } from "@/lib/appointments/settings";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx }) => bookingSettingsView(db, ctx.organizationId));

export const PATCH = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, updateBookingSettingsInput);
  return updateBookingSettings(db, ctx.organizationId, input);
});
