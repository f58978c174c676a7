import { getAnalytics } from "@/lib/admin/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async (_req, { db }) => getAnalytics(db));
