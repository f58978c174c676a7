import { authedRoute } from "@/lib/http/route";
import { markNotSpam } from "@/lib/routing/service";

/** POST /api/calls/{id}/not-spam — restores the call from spam and allow-lists the caller. */
export const POST = authedRoute({ permission: "phone_numbers.write" }, async (_req, { db, ctx, params }) => markNotSpam(db, ctx.organizationId, params.id));
