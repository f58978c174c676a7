import { serveCallRecording } from "@/lib/compliance/recordings";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/calls/{id}/recording[?download=1]: the whole-call recording (docs/compliance.md#recordings); each opening is logged. */
export const GET = authedRoute({ permission: "calls.read" }, async (req, { db, ctx, params }) =>
  serveCallRecording(db, ctx, params.id, new URL(req.url).searchParams.get("download") === "1"),
);
