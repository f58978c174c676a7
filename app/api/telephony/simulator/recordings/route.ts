import { json, publicRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authenticateCarrierAccount, uploadRecording, uploadRecordingInput } from "@/lib/phone/telephony/simulator-recordings";

/** POST /api/telephony/simulator/recordings — the simulated carrier stores a <Record>ing (Basic AccountSid:AuthToken). */
export const POST = publicRoute(async (req, { db }) => {
  const account = await authenticateCarrierAccount(db, req.headers.get("authorization"));
  return json(await uploadRecording(db, account, await parseJsonBody(req, uploadRecordingInput)), { status: 201 });
});
