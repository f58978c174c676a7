import { getSystemStats } from "@/lib/consoles/admin/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async (_req, { db }) => getSystemStats(db));
