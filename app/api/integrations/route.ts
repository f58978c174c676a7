import { listIntegrations } from "@/lib/channels/integrations/service";
import { publicRoute } from "@/lib/identity/http/route";

/** Public: signed-out visitors get the catalogue with nothing connected; signed-in, their organization's state. */
export const GET = publicRoute({ session: "optional" }, async (_req, { db, session }) =>
  listIntegrations(db, session?.user.organizationId ?? null),
);
