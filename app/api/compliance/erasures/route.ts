import { certificatesCsv, listErasureCertificates } from "@/lib/compliance/erasure";
import { csvResponse } from "@/lib/compliance/csv";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/compliance/erasures[?format=csv]: the organization's erasure certificates, newest first. */
export const GET = authedRoute({ permission: "settings.write" }, async (req, { db, ctx }) => {
  const list = await listErasureCertificates(db, ctx.organizationId);
  if (new URL(req.url).searchParams.get("format") === "csv") return csvResponse("erasure-certificates.csv", certificatesCsv(list.certificates));
  return list;
});
