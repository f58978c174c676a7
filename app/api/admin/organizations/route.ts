import { listOrganizations } from "@/lib/consoles/admin/service";
import { authedRoute } from "@/lib/platform/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async (_req, { db }) => listOrganizations(db));
