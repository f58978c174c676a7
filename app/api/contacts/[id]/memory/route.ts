import { authedRoute } from "@/lib/identity/http/route";
import { forgetContact } from "@/lib/phone/callers/memory";

/** DELETE /api/contacts/{id}/memory: erases what is remembered about the contact, for good. */
export const DELETE = authedRoute({ permission: "messages.write" }, async (_req, { db, ctx, params }) => forgetContact(db, ctx.organizationId, params.id));
