import { logClipAccess } from "@/lib/compliance/hipaa";
import { publicRoute } from "@/lib/identity/http/route";
import { serveAudioClip } from "@/lib/phone/voice/serve-audio";

/** GET/HEAD /api/audio/{id} — a stored clip, by signed token or by the owning organization's session (lib/phone/voice/serve-audio.ts). */
export const GET = publicRoute({ session: "optional" }, async (req, { db, session, params }) => {
  const res = await serveAudioClip(db, session, req, params.id, false);
  // A call's recording opened by someone signed in: the access log (docs/compliance.md#hipaa-mode).
  await logClipAccess(db, session, req, params.id);
  return res;
});
export const HEAD = publicRoute({ session: "optional" }, async (req, { db, session, params }) => serveAudioClip(db, session, req, params.id, true));
