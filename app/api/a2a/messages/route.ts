import { listMessages } from "@/lib/agents/a2a/messages";
import { authedRoute } from "@/lib/identity/http/route";

/** The last 50 messages sent to agents, with their delivery state and answers. */
export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx }) => ({ messages: await listMessages(db, ctx) }));
