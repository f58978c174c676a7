import { getDb } from "@/db/client";
import { createAssistantInput } from "@/lib/assistants/schema";
import { createAssistant, listAssistants } from "@/lib/assistants/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

export const GET = authedRoute({ permission: "assistants.read" }, async (_req, { ctx }) =>
  listAssistants(await getDb(), ctx.organizationId),
);

export const POST = authedRoute({ permission: "assistants.write" }, async (req, { ctx }) => {
  const input = await parseJsonBody(req, createAssistantInput);
  const assistant = await createAssistant(await getDb(), ctx.organizationId, input);
  return json(assistant, { status: 201 });
});
