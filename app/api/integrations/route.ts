import { getDb } from "@/db/client";
import { resolveSession } from "@/lib/auth/session";
import { listIntegrations } from "@/lib/integrations/service";
import { publicRoute } from "@/lib/http/route";

/** Public: signed-out visitors get the catalogue with nothing connected; signed-in, their organization's state. */
export const GET = publicRoute(async (req) => {
  const session = await resolveSession(req.headers);
  return listIntegrations(await getDb(), session?.user.organizationId ?? null);
});
