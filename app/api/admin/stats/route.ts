import { getDb } from "@/db/client";
import { getAdminStats } from "@/lib/admin/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async () => getAdminStats(await getDb()));
