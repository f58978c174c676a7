import { accessLogCsv, listRecordAccess } from "@/lib/compliance/hipaa";
import { csvResponse } from "@/lib/compliance/csv";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/compliance/access-log[?format=csv]: who opened which transcript or recording, newest first. */
export const GET = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const log = await listRecordAccess(db, ctx.organizationId);
  if (new URL(req.url).searchParams.get("format") === "csv") return csvResponse("access-log.csv", accessLogCsv(log.entries));
  return log;
});
