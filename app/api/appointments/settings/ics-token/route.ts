import { regenerateIcsToken } from "@/lib/scheduling/settings";
import { authedRoute } from "@/lib/identity/http/route";

/** A new secret feed URL; the old one answers 404 from now on. */
export const POST = authedRoute({ permission: "appointments.write" }, async (_req, { db, ctx }) => regenerateIcsToken(db, ctx.organizationId));
