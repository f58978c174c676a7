import { createAssistantInput } from "@/lib/assistants/schema";
import { createAssistant, listAssistants } from "@/lib/assistants/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

export const GET = authedRoute({ permission: "assistants.read" }, async (_req, { db, ctx }) =>
  listAssistants(db, ctx.organizationId),
);

export const POST = authedRoute({ permission: "assistants.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAssistantInput);
  const assistant = await createAssistant(db, ctx.organizationId, input);
  return json(assistant, { status: 201 });
});
