import type { Prompt } from "@/lib/phone/telephony/twiml";
import { absoluteUrl } from "@/lib/phone/telephony/urls";
import type { Notice } from "./notice";

/** The path of the whole-call recording's status callback (app/api/telephony/voice/call-recording). */
export const CALL_RECORDING_PATH = "/api/telephony/voice/call-recording";

/** The notice as the prompts played before the first Gather (a `<Say>`, outside it, so it cannot be interrupted). */
export function noticePrompts(notice: Notice): Prompt[] {
  return notice.text ? [{ say: notice.text }] : [];
}

/** How a call opens: the notice, then (where the organization records calls) the recording's start; in Connecticut and Washington the recording starts first (the notice must be on it). */
export function callOpening(notice: Notice & { record: boolean; recordNotice?: boolean }): { before: Prompt[]; recordingCallbackUrl?: string; recordNotice: boolean } {
  return { before: noticePrompts(notice), recordNotice: Boolean(notice.record && notice.recordNotice), ...(notice.record ? { recordingCallbackUrl: absoluteUrl(CALL_RECORDING_PATH) } : {}) };
}
