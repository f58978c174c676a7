import { clientIp } from "@/lib/platform/http/client-ip";
import { forbidden, unauthorized } from "@/lib/platform/http/errors";
import { parseJsonBody, validationError } from "@/lib/platform/http/parse";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { json, publicRoute } from "@/lib/identity/http/route";
import { z } from "zod";
import { DEMO_RATE_LIMIT, DEMO_RATE_LIMIT_MESSAGE } from "@/lib/phone/voice/demo";
import { coreVoiceTestInput, isMobileBody, mobileVoiceTestInput } from "@/lib/phone/voice/schema";
import { chatSessionKey, runVoiceTest, VoiceTurnError } from "@/lib/phone/voice/service";

/**
 * POST /api/voice/test — one voice turn (docs/api.md#voice).
 * - core body {testText} (signed in, voice_test.run) → {input, aiResponse, audioUrl, timestamp, …}
 * - mobile body {text, testText, sessionId} → {success, aiResponse, audioFile, intent, error, …};
 *   signed out it talks to the public demo assistant, limited per IP.
 */
export const POST = publicRoute({ session: "optional" }, async (req, { db, session }) => {
  const startedAt = performance.now();
  const raw = await parseJsonBody(req, z.unknown());
  const mobile = isMobileBody(raw);

  if (!session && !mobile) throw unauthorized();
  if (session && !session.user.permissions.includes("voice_test.run")) throw forbidden("You do not have permission to do this.");

  if (!mobile) {
    const parsed = coreVoiceTestInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const result = await runVoiceTest(db, {
      organizationId: session!.user.organizationId,
      userId: session!.user.id,
      text: parsed.data.testText,
      assistantId: parsed.data.assistantId,
      chatSessionId: null,
      source: "voice_test",
      startedAt,
    });
    const { aiResponse, audioUrl, input, timestamp, ...rest } = result;
    return { input, aiResponse, audioUrl, timestamp, ...rest };
  }

  const parsed = mobileVoiceTestInput.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  const organizationId = session?.user.organizationId ?? null;
  if (!session) {
    const ip = clientIp(req.headers) ?? "unknown";
    await hitRateLimit(db, `voice-demo:ip:${ip}`, DEMO_RATE_LIMIT.limit, DEMO_RATE_LIMIT.windowMs, DEMO_RATE_LIMIT_MESSAGE);
  }
  try {
    const result = await runVoiceTest(db, {
      organizationId,
      userId: session?.user.id ?? null,
      text: parsed.data.text,
      assistantId: session ? parsed.data.assistantId : undefined,
      chatSessionId: chatSessionKey(organizationId, parsed.data.sessionId),
      source: "chat",
      startedAt,
    });
    const { aiResponse, audioUrl, intent, ...rest } = result;
    return { success: true, aiResponse, audioFile: audioUrl, intent, error: null, sessionId: parsed.data.sessionId, ...rest };
  } catch (error) {
    // Provider failures keep the mobile shape (the chat shows its error reply); 400/402/404 stay as they are.
    if (error instanceof VoiceTurnError) {
      return json(
        { success: false, aiResponse: null, audioFile: null, intent: null, error: error.message, message: error.message },
        { status: error.status },
      );
    }
    throw error;
  }
});
