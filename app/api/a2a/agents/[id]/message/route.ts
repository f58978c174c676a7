import { sendMessage } from "@/lib/agents/a2a/messages";
import { sendMessageInput } from "@/lib/agents/a2a/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

/** Queues a message to the agent {id} (which must be online); delivered by the a2a.deliver job. */
export const POST = authedRoute({ permission: "a2a.manage" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, sendMessageInput);
  return json(await sendMessage(db, ctx, params.id, input), { status: 202 });
});
