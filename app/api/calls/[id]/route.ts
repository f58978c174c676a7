import { getCallDetail } from "@/lib/receptionist/call-history/service";
import { logRecordAccess } from "@/lib/compliance/hipaa";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "calls.read" }, async (_req, { db, ctx, params }) => {
  const call = await getCallDetail(db, ctx.organizationId, params.id);
  // Who opened which transcript (docs/compliance.md#hipaa-mode).
  if (call.transcript.length || call.voicemail?.transcript) {
    await logRecordAccess(db, { organizationId: ctx.organizationId, userId: ctx.userId, userEmail: ctx.user.email, resource: call.transcript.length ? "transcript" : "voicemail", callId: call.id });
  }
  return call;
});
