import { publicUser } from "@/lib/auth/session";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "account.read" }, async (_req, { ctx }) => publicUser(ctx.user));
