import { certificatesCsv, getErasureCertificate } from "@/lib/compliance/erasure";
import { csvResponse } from "@/lib/compliance/csv";
import { authedRoute, json } from "@/lib/identity/http/route";

/** GET /api/compliance/erasures/{id}[?format=csv|json]: one certificate; `format` downloads it as a file. */
export const GET = authedRoute({ permission: "settings.write" }, async (req, { db, ctx, params }) => {
  const certificate = await getErasureCertificate(db, ctx.organizationId, params.id);
  const format = new URL(req.url).searchParams.get("format");
  if (format === "csv") return csvResponse(`erasure-certificate-${certificate.id}.csv`, certificatesCsv([certificate]));
  if (format === "json") return json(certificate, { headers: { "content-disposition": `attachment; filename="erasure-certificate-${certificate.id}.json"` } });
  return certificate;
});
