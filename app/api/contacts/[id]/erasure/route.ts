import { eraseContact } from "@/lib/compliance/erasure";
import { erasureRequestInput } from "@/lib/compliance/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

/** POST /api/contacts/{id}/erasure: an owner records the caller's erasure request; answers the certificate (201). */
export const POST = authedRoute({ permission: "settings.write" }, async (req, { db, ctx, params }) => {
  await parseJsonBody(req, erasureRequestInput);
  const name = [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(" ") || ctx.user.email;
  return json(await eraseContact(db, ctx.organizationId, params.id, { userId: ctx.userId, name }), { status: 201 });
});
