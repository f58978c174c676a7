import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { textBackInput } from "@/lib/receptionist/schema";
import { getTextBack, updateTextBack } from "@/lib/receptionist/text-back";

export const GET = authedRoute({ permission: "phone_numbers.read" }, async (_req, { db, ctx, params }) => getTextBack(db, ctx.organizationId, params.id));

/** PUT /api/phone-numbers/{id}/text-back {enabled?, template?} */
export const PUT = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx, params }) =>
  updateTextBack(db, ctx.organizationId, params.id, await parseJsonBody(req, textBackInput)),
);
