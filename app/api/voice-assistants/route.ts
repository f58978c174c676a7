import { createAssistantInput } from "@/lib/agents/assistants/schema";
import { createAssistant, listAssistants } from "@/lib/agents/assistants/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "assistants.read" }, async (_req, { db, ctx }) =>
  listAssistants(db, ctx.organizationId),
);

export const POST = authedRoute({ permission: "assistants.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAssistantInput);
  const assistant = await createAssistant(db, ctx.organizationId, input);
  return json(assistant, { status: 201 });
});
