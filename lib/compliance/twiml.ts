import type { Prompt } from "@/lib/telephony/twiml";
import type { Notice } from "./notice";

/** The notice as the prompts played before the first Gather (a `<Say>`, outside it, so it cannot be interrupted). */
export function noticePrompts(notice: Notice): Prompt[] {
  return notice.text ? [{ say: notice.text }] : [];
}
