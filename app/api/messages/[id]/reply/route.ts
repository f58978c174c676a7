import { json, authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { replyToThreadInput } from "@/lib/phone/telephony/schema";
import { replyToThread } from "@/lib/channels/phone-line/sms";

/** POST /api/messages/{id}/reply — the owner texts the contact back, through the number's carrier. */
export const POST = authedRoute({ permission: "messages.write" }, async (req, { db, ctx, params }) => {
  const { body } = await parseJsonBody(req, replyToThreadInput);
  return json(await replyToThread(db, ctx.organizationId, params.id, body, ctx.userId), { status: 201 });
});
