import { publicRoute } from "@/lib/http/route";
import { serveAudioClip } from "@/lib/voice/serve-audio";

/** GET/HEAD /api/audio/{id} — a stored clip, by signed token or by the owning organization's session (lib/voice/serve-audio.ts). */
export const GET = publicRoute({ session: "optional" }, async (req, { db, session, params }) => serveAudioClip(db, session, req, params.id, false));
export const HEAD = publicRoute({ session: "optional" }, async (req, { db, session, params }) => serveAudioClip(db, session, req, params.id, true));
