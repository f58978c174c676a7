import { getRegistration, submitRegistration } from "@/lib/compliance/messaging-registration";
import { registrationInput } from "@/lib/compliance/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

/** GET /api/compliance/messaging-registration: the A2P 10DLC registration and the texts waiting for it. */
export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx }) => getRegistration(db, ctx.organizationId));

/** POST: submits the brand and campaign (Twilio's API when Twilio keys are set, else the simulated carrier). */
export const POST = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, registrationInput);
  return json(await submitRegistration(db, ctx.organizationId, input), { status: 201 });
});
