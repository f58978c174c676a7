import { publicRoute } from "@/lib/identity/http/route";
import { authenticateCarrierAccount, downloadRecording } from "@/lib/phone/telephony/simulator-recordings";

/** GET /api/telephony/simulator/recordings/{sid} — a simulated recording's audio (Basic AccountSid:AuthToken). */
export const GET = publicRoute(async (req, { db, params }) =>
  downloadRecording(db, await authenticateCarrierAccount(db, req.headers.get("authorization")), params.sid),
);
