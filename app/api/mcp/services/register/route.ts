import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";
import { registerServiceInput } from "@/lib/agents/mcp/schema";
import { registerService } from "@/lib/agents/mcp/service";

export const POST = authedRoute({ permission: "mcp.manage" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, registerServiceInput);
  return json(await registerService(db, ctx, input), { status: 201 });
});
