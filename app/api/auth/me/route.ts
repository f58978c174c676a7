import { publicUser } from "@/lib/auth/session";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({}, async (_req, { ctx }) => publicUser(ctx.user));
