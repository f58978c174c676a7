import { getDb } from "@/db/client";
import { getAnalytics } from "@/lib/admin/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async () => getAnalytics(await getDb()));
