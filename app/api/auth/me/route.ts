import { publicUser } from "@/lib/identity/auth/session";
import { authedRoute } from "@/lib/platform/http/route";

export const GET = authedRoute({ permission: "account.read" }, async (_req, { ctx }) => publicUser(ctx.user));
