import { publicUser } from "@/lib/identity/auth/session";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "account.read" }, async (_req, { ctx }) => publicUser(ctx.user));
