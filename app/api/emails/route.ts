import { authedRoute } from "@/lib/identity/http/route";
import { listEmails } from "@/lib/receptionist/inbox";

/** GET /api/emails: the organization's e-mails (the Outbox when no SMTP server is configured), latest 50. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => listEmails(db, ctx.organizationId));
