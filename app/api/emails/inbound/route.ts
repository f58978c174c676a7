import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";
import { authorizeInbound, handleRecapReply } from "@/lib/receptionist/recap-replies";
import { inboundEmailInput } from "@/lib/receptionist/schema";

/**
 * POST /api/emails/inbound — an e-mail from the inbound-mail service, as JSON {from, to, subject, text},
 * with `Authorization: Bearer $INBOUND_EMAIL_SECRET`. A reply to a daily recap ("done 2") marks those
 * tasks done (docs/receptionist.md#answering-the-recap-by-e-mail).
 */
export const POST = publicRoute(async (req, { db }) => {
  authorizeInbound(req.headers.get("authorization"));
  const input = await parseJsonBody(req, inboundEmailInput);
  return handleRecapReply(db, input);
});
