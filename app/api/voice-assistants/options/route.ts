import { assistantOptions } from "@/lib/agents/assistants/service";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/voice-assistants/options — the form's lists and the plan's assistant limit (`limit`). */
export const GET = authedRoute({ permission: "assistants.read" }, async (_req, { db, ctx }) => assistantOptions(db, ctx.organizationId));
