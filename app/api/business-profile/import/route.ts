import { importInput } from "@/lib/knowledge/business-profile/facts";
import { importFromFile, importFromText, importFromWebsite, MAX_UPLOAD_BYTES } from "@/lib/knowledge/business-profile/import/service";
import { badRequest, HttpError } from "@/lib/platform/http/errors";
import { invalidRequest, parseJsonBody, readBodyBytes } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/**
 * POST /api/business-profile/import — facts to confirm, nothing saved (docs/api.md#business-profile):
 * JSON {url} (a website, a few pages deep) or {text, name?} (pasted text); or multipart/form-data
 * with a `file` field (PDF, HTML, text or Markdown, up to 10 MB).
 */
export const POST = authedRoute({ permission: "business.write", accepts: "any" }, async (req, { db, ctx }) => {
  const contentType = req.headers.get("content-type") ?? "";
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    const tooLarge = new HttpError(413, "The file is larger than 10 MB", { file: "The file is larger than 10 MB" });
    const bytes = await readBodyBytes(req, MAX_UPLOAD_BYTES + 64 * 1024, tooLarge);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
    } catch {
      throw badRequest("The upload could not be read; send multipart/form-data with a file field", { file: "Choose a file to upload" });
    }
    const file = form.get("file");
    if (!file || typeof file === "string") throw invalidRequest({ file: "Choose a file to upload" });
    return importFromFile(db, ctx.organizationId, {
      name: file.name,
      contentType: file.type,
      bytes: Buffer.from(await file.arrayBuffer()),
    });
  }
  const input = await parseJsonBody(req, importInput);
  if (input.url) return importFromWebsite(db, ctx.organizationId, input.url);
  return importFromText(db, ctx.organizationId, input.text!, input.name || undefined);
});
