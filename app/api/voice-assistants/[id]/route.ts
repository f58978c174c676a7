import { updateAssistantInput } from "@/lib/agents/assistants/schema";
import { deleteAssistant, getAssistant, updateAssistant } from "@/lib/agents/assistants/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "assistants.read" }, async (_req, { db, ctx, params }) =>
  getAssistant(db, ctx.organizationId, params.id),
);

export const PUT = authedRoute({ permission: "assistants.write" }, async (req, { db, ctx, params }) => {
  const patch = await parseJsonBody(req, updateAssistantInput);
  return updateAssistant(db, ctx.organizationId, params.id, patch);
});

export const DELETE = authedRoute({ permission: "assistants.write" }, async (_req, { db, ctx, params }) => {
  await deleteAssistant(db, ctx.organizationId, params.id);
  return { success: true };
});
