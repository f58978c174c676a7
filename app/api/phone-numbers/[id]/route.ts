import { authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { updatePhoneNumberInput } from "@/lib/phone/numbers/schema";
import { deletePhoneNumber, getPhoneNumber, updatePhoneNumber } from "@/lib/phone/numbers/service";

export const GET = authedRoute({ permission: "phone_numbers.read" }, async (_req, { db, ctx, params }) =>
  getPhoneNumber(db, ctx.organizationId, params.id),
);

export const PATCH = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updatePhoneNumberInput);
  return updatePhoneNumber(db, ctx.organizationId, params.id, input);
});

export const DELETE = authedRoute({ permission: "phone_numbers.write" }, async (_req, { db, ctx, params }) =>
  deletePhoneNumber(db, ctx.organizationId, params.id),
);
