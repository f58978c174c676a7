import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages } from "@/db/schema";
import { noticeFor } from "./notice";
import { complianceSettingsFor } from "./settings";
import { partyState } from "./states";

/**
 * The same disclosure on a text conversation's first reply: when the assistant has not written in
 * the thread yet (a missed-call text-back or the owner's own texts do not count: they disclose
 * nothing), the notice leads the assistant's reply ("Texts to this number are answered by an AI
 * assistant and kept as a record. We're open 9 to 5.").
 */
export async function withTextNotice(
  db: DbOrTx,
  input: { organizationId: string; threadId: string; from: string; fromState?: string; to: string; toState?: string; language?: "en" | "es" },
  reply: string,
): Promise<string> {
  const [earlier] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.organizationId, input.organizationId), eq(messages.threadId, input.threadId), eq(messages.direction, "outbound"), eq(messages.sentBy, "assistant")))
    .limit(1);
  if (earlier) return reply;
  const settings = await complianceSettingsFor(db, input.organizationId);
  const businessState = settings.businessStateSource === "settings" || settings.businessStateSource === "address" ? settings.businessState : partyState(input.toState, input.to);
  const notice = noticeFor({ callerState: partyState(input.fromState, input.from), businessState, settings, channel: "text", language: input.language });
  return notice.text ? `${notice.text} ${reply}` : reply;
}
