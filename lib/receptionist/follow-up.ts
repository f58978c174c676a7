import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantActions, callFollowUps, calls } from "@/db/schema";
import { postToSlack } from "./slack";
import { businessInfo } from "@/lib/phone/voice/context";
import { OWNER_NOTICES, TASK_TITLES, URGENT_WORDS, who } from "@/lib/platform/text/receptionist";
import { memoryFor, rememberCaller } from "@/lib/phone/callers/memory";
import { notifyOwners } from "./notify";
import { createTask, taskExists } from "@/lib/phone/callers/tasks";
import { sendTextBack, type CallResult, type TextBackOutcome } from "./text-back";

/**
 * After a call (from the `call.finish` job, once its analysis and webhooks are done): its tasks, the
 * caller's memory, the text-back and the owner's notice. Each step is claimed on `call_follow_up`,
 * so a job run twice makes each task, text and notice once.
 */
type CallRow = typeof calls.$inferSelect;

const FOLLOWED_OUTCOMES = new Set(["missed", "voicemail", "answered_by_assistant", "failed"]);

export function needsFollowUp(call: CallRow): boolean {
  return call.direction === "inbound" && call.channel === "phone" && !call.isSpam && FOLLOWED_OUTCOMES.has(call.outcome ?? "");
}

async function actionsOf(db: Db, call: CallRow) {
  return db
    .select({ type: assistantActions.type, detail: assistantActions.detail })
    .from(assistantActions)
    .where(and(eq(assistantActions.callId, call.id), eq(assistantActions.organizationId, call.organizationId)))
    .orderBy(asc(assistantActions.createdAt));
}

/** The tasks a call leaves: a voicemail, each message taken, a callback request, or a missed call. */
async function tasksFor(db: Db, call: CallRow, name: string | null): Promise<number> {
  const caller = who(name, call.fromNumber);
  const base = { organizationId: call.organizationId, contactNumber: call.fromNumber, contactName: name, callId: call.id };
  const actions = await actionsOf(db, call);
  let made = 0;
  if (call.status === "voicemail" || actions.some((a) => a.type === "voicemail_recorded")) {
    const transcript = call.voicemailTranscript?.trim() || null;
    made += Number(await createTask(db, { ...base, kind: "voicemail", title: TASK_TITLES.voicemail(caller, transcript), detail: transcript ?? "", sourceKey: `call:${call.id}:voicemail` }));
  }
  const taken = actions.filter((a) => a.type === "took_message");
  for (const [i, a] of taken.entries()) {
    const message = String(a.detail.message ?? "").trim();
    if (!message) continue;
    // A message the engine already wrote as a task during the call carries that task's key: never twice.
    const key = typeof a.detail.taskKey === "string" ? a.detail.taskKey : `call:${call.id}:message:${i}`;
    const wrote = await createTask(db, { ...base, kind: "message", title: TASK_TITLES.message(caller, message), detail: message, sourceKey: key });
    made += Number(wrote || (await taskExists(db, call.organizationId, key)));
  }
  if (!taken.length && actions.some((a) => a.type === "callback_requested")) {
    const asked = actions.find((a) => a.type === "callback_requested");
    made += Number(await createTask(db, { ...base, kind: "callback", title: TASK_TITLES.callback(caller), detail: String(asked?.detail.text ?? ""), sourceKey: `call:${call.id}:callback` }));
  }
  if (call.outcome === "missed" && made === 0) {
    made += Number(await createTask(db, { ...base, kind: "callback", title: TASK_TITLES.missed(caller), sourceKey: `call:${call.id}:missed` }));
  }
  return made;
}

function callerUtterances(call: CallRow): string[] {
  const said = call.transcript.filter((t) => t.speaker === "caller").map((t) => t.text);
  if (call.voicemailTranscript) said.push(call.voicemailTranscript);
  return said;
}

export type FollowUpResult = { tasks: number; textBack: TextBackOutcome | null; notified: boolean };

export async function followUpCall(db: Db, ref: { callId: string; organizationId: string }): Promise<FollowUpResult | null> {
  const [call] = await db
    .select()
    .from(calls)
    .where(and(eq(calls.id, ref.callId), eq(calls.organizationId, ref.organizationId)));
  if (!call || !needsFollowUp(call)) return null;
  await db.insert(callFollowUps).values({ callId: call.id, organizationId: call.organizationId }).onConflictDoNothing();

  await rememberCaller(db, call.organizationId, call.fromNumber, { name: call.callerName, utterances: callerUtterances(call) });
  const memory = await memoryFor(db, call.organizationId, call.fromNumber);
  const name = memory?.name ?? null;

  const made = await tasksFor(db, call, name);
  await db
    .update(callFollowUps)
    .set({ tasksAt: new Date() })
    .where(and(eq(callFollowUps.callId, call.id), isNull(callFollowUps.tasksAt)));

  const business = (await businessInfo(db, call.organizationId)).name;
  let textBack: TextBackOutcome | null = null;
  const [claimedText] = await db
    .update(callFollowUps)
    .set({ textBack: "pending" })
    .where(and(eq(callFollowUps.callId, call.id), eq(callFollowUps.organizationId, call.organizationId), isNull(callFollowUps.textBack)))
    .returning();
  if (claimedText) {
    const actions = await actionsOf(db, call);
    const booked = [...actions].reverse().find((a) => a.type === "appointment_booked" || a.type === "appointment_moved");
    const taken = actions.find((a) => a.type === "took_message" && String(a.detail.message ?? "").trim());
    const result: CallResult = booked?.detail.readBack
      ? { kind: "booked", readBack: String(booked.detail.readBack) }
      : taken && made > 0
        ? { kind: "message", message: String(taken.detail.message).trim() }
        : made > 0 || call.outcome !== "answered_by_assistant"
        ? { kind: "task" }
        : { kind: "nothing" };
    const sent = await sendTextBack(db, call, { business, name, result });
    textBack = sent.outcome;
    await db
      .update(callFollowUps)
      .set({ textBack: sent.outcome, textBackMessageId: sent.messageId ?? null })
      .where(eq(callFollowUps.callId, call.id));
  }

  const [claimedNotice] = await db
    .update(callFollowUps)
    .set({ notifiedAt: new Date() })
    .where(and(eq(callFollowUps.callId, call.id), eq(callFollowUps.organizationId, call.organizationId), isNull(callFollowUps.notifiedAt)))
    .returning();
  if (claimedNotice) {
    const caller = who(name ?? call.callerName, call.fromNumber);
    const base = call.status === "voicemail" ? "voicemail" : call.outcome === "missed" || call.outcome === "failed" ? "missed" : made > 0 ? "message" : "handled";
    // A task the caller said is urgent is its own alert (Settings → Notifications → Urgent tasks).
    const urgent = made > 0 && callerUtterances(call).some((said) => URGENT_WORDS.test(said));
    const kind = urgent ? "urgent" : base;
    const title = OWNER_NOTICES[kind](caller);
    const lines = [call.summary ?? "", made ? `${made} new task${made === 1 ? "" : "s"}: /tasks` : ""];
    const final = await db.select({ textBack: callFollowUps.textBack }).from(callFollowUps).where(eq(callFollowUps.callId, call.id));
    const tb = final[0]?.textBack;
    if (tb === "sent") lines.push(OWNER_NOTICES.textBackSent(call.fromNumber));
    if (tb === "opted_out") lines.push(OWNER_NOTICES.textBackOptedOut(call.fromNumber));
    const body = lines.filter(Boolean).join(" ");
    const link = made ? "/tasks" : `/call-history?call=${call.id}`;
    await notifyOwners(db, { organizationId: call.organizationId, kind: urgent ? "task.urgent" : `call.${kind}`, title, body, link });
    // Slack already gets the missed-call message from call.finish; the other outcomes are posted here.
    if (base !== "missed") await postToSlack(db, call.organizationId, `call.${base}`, `${title}. ${body}`.trim(), { callId: call.id });
  }
  return { tasks: made, textBack, notified: Boolean(claimedNotice) };
}
