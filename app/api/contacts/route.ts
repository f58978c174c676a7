import { authedRoute } from "@/lib/identity/http/route";
import { listContacts } from "@/lib/phone/callers/memory";

/** GET /api/contacts: callers and what the assistant remembers about them. */
export const GET = authedRoute({ permission: "calls.read" }, async (_req, { db, ctx }) => listContacts(db, ctx.organizationId));
