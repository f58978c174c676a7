import { json, authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { createPhoneNumberInput } from "@/lib/phone/numbers/schema";
import { createPhoneNumber, listPhoneNumbers } from "@/lib/phone/numbers/service";

export const GET = authedRoute({ permission: "phone_numbers.read" }, async (_req, { db, ctx }) =>
  listPhoneNumbers(db, ctx.organizationId),
);

export const POST = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createPhoneNumberInput);
  return json(await createPhoneNumber(db, ctx.organizationId, input), { status: 201 });
});
