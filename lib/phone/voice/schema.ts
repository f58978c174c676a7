import { z } from "zod";

/** The most a single test message may hold: a caller's turn, not a document. */
export const MAX_TEST_TEXT = 1000;

export const BLANK_TEXT_MESSAGE = "Please enter some text to test the voice pipeline";

const text = z
  .string({ error: BLANK_TEXT_MESSAGE })
  .trim()
  .min(1, BLANK_TEXT_MESSAGE)
  .max(MAX_TEST_TEXT, `Keep the text under ${MAX_TEST_TEXT} characters`);

const assistantId = z.string().trim().min(1).max(100).optional();

/** Core §7: POST /api/voice/test {testText} (the /voice-test screen). */
export const coreVoiceTestInput = z.object({ testText: text, assistantId });

/**
 * Advanced §7 (mobile chat): {text, testText, sessionId}. `text` is the message; `testText` is
 * accepted as its alias. `sessionId` keeps the conversation's context across turns.
 */
export const mobileVoiceTestInput = z
  .object({
    // Checked for length after trimming, below; this bound only stops a megabyte from being trimmed.
    text: z.string().max(MAX_TEST_TEXT * 4, `Keep the text under ${MAX_TEST_TEXT} characters`).optional(),
    testText: z.string().max(MAX_TEST_TEXT * 4, `Keep the text under ${MAX_TEST_TEXT} characters`).optional(),
    sessionId: z
      .string()
      .trim()
      .min(1, "sessionId cannot be blank")
      .max(100, "sessionId is at most 100 characters")
      .regex(/^[A-Za-z0-9_.:-]+$/, "sessionId may hold letters, digits and - _ . : only")
      .optional(),
    assistantId,
  })
  .transform((body, ctx) => {
    const message = (body.text ?? "").trim() || (body.testText ?? "").trim();
    if (!message) {
      ctx.addIssue({ code: "custom", path: ["text"], message: BLANK_TEXT_MESSAGE });
      return z.NEVER;
    }
    if (message.length > MAX_TEST_TEXT) {
      ctx.addIssue({ code: "custom", path: ["text"], message: `Keep the text under ${MAX_TEST_TEXT} characters` });
      return z.NEVER;
    }
    return { text: message, sessionId: body.sessionId ?? null, assistantId: body.assistantId };
  });

/** The mobile body is recognised by `text` or `sessionId`; anything else is the core body. */
export function isMobileBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && ("text" in body || "sessionId" in body);
}

export type CoreVoiceTestInput = z.infer<typeof coreVoiceTestInput>;
export type MobileVoiceTestInput = z.infer<typeof mobileVoiceTestInput>;
