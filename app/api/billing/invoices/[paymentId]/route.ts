import { renderInvoice } from "@/lib/workspace/billing/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "billing.read" }, async (_req, { db, ctx, params }) => {
  const html = await renderInvoice(db, ctx.organizationId, params.paymentId);
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:",
    },
  });
});
