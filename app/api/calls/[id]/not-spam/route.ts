import { authedRoute } from "@/lib/identity/http/route";
import { markNotSpam } from "@/lib/phone/routing/service";

/** POST /api/calls/{id}/not-spam — restores the call from spam and allow-lists the caller. */
export const POST = authedRoute({ permission: "phone_numbers.write" }, async (_req, { db, ctx, params }) => markNotSpam(db, ctx.organizationId, params.id));
