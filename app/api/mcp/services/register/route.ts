import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";
import { registerServiceInput } from "@/lib/mcp/schema";
import { registerService } from "@/lib/mcp/service";

export const POST = authedRoute({ permission: "mcp.manage" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, registerServiceInput);
  return json(await registerService(db, ctx, input), { status: 201 });
});
