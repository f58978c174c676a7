import { authedRoute, json } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { callerListInput } from "@/lib/phone/routing/schema";
import { addCallerEntry, listCallerEntries, removeCallerEntry } from "@/lib/phone/routing/service";

/** The organization's block and allow lists (docs/api.md#routing-and-spam). */
export const GET = authedRoute({ permission: "phone_numbers.read" }, async (_req, { db, ctx }) => listCallerEntries(db, ctx.organizationId));

export const POST = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, callerListInput);
  return json(await addCallerEntry(db, ctx.organizationId, input), { status: 201 });
});

export const DELETE = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx }) => {
  const url = new URL(req.url);
  return removeCallerEntry(db, ctx.organizationId, { id: url.searchParams.get("id"), phoneNumber: url.searchParams.get("phoneNumber") });
});
