import "server-only";
import { hearingContext, loadTurnContext } from "@/lib/agents/conversation/context";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { messages, messageThreads, phoneNumbers } from "@/db/schema";
import { changeCredits } from "@/lib/workspace/billing/ledger";
import { DEFAULT_CALL_RULES } from "@/lib/agents/conversation/call-rules";
import { bookingHeard } from "@/lib/agents/conversation/engine";
import { actOn, decideTurn, isOutOfCredits, paidTurn, TEXT_ANSWERS, TurnFailedError, type Decided, type TurnInput } from "@/lib/agents/conversation/turn";
import { getCallPolicy } from "@/lib/phone/routing/policy";
import { listEntryFor, scoreTexter, SPAM_POINTS } from "@/lib/phone/routing/spam";
import { SPAM } from "@/lib/platform/text/routing";
import { creditPrices } from "@/lib/workspace/billing/prices";
import { badRequest, conflict, HttpError, notFound } from "@/lib/platform/http/errors";
import type { ChatMessage, LlmProvider } from "@/lib/platform/providers/llm/interface";
import { TelephonyError } from "@/lib/platform/providers/telephony/interface";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { assistantForNumber, businessInfo, personaForModel } from "@/lib/phone/voice/context";
import { HISTORY_TURNS } from "@/lib/phone/voice/service";
import { bookingAwareLlm, bookingInProgress } from "@/lib/scheduling/dialogue/conversation";
import type { DialogueTurn } from "@/lib/scheduling/dialogue/dialogue";
import { clearOptOut } from "@/lib/scheduling/messaging";
import { assertMayText, optOut } from "@/lib/phone/messages/opt-out";
import { handleAppointmentReply } from "@/lib/scheduling/replies";
import { normalizePhone } from "@/lib/scheduling/schema";
import type { BookingDeps } from "@/lib/scheduling/service";
import { recordKnowledgeGap } from "@/lib/knowledge/gaps/service";
import { asksForCallback } from "@/lib/agents/conversation/understanding/forget";
import { withTextNotice } from "@/lib/compliance/text-notice";
import { assertRegistrationAllowsTexts, holdText, messagingHold } from "@/lib/compliance/messaging-registration";
import { memoryFor, memoryForModel, rememberCaller } from "@/lib/phone/callers/memory";
import { createTask } from "@/lib/phone/callers/tasks";
import { FORGET_ME, OWNER_NOTICES, TASK_TITLES, URGENT_WORDS, who } from "@/lib/platform/text/receptionist";
import { notifyOwners } from "@/lib/receptionist/notify";
import { recordAction } from "@/lib/phone/telephony/actions";
import { messageTwiml } from "@/lib/phone/telephony/twiml";
import { twimlResponse, verifiedNumber, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { recordAssistantReply } from "@/lib/agents/assistants/replies";
import { queueProviderDeliveries } from "@/lib/platform/outbound/provider-queue";
import { threadFor, threadOfMessage, type ThreadMessage } from "@/lib/phone/telephony/sms-threads";

export { threadFor, threadView, type ThreadMessage, type ThreadView } from "@/lib/phone/telephony/sms-threads";

/**
 * Texts: the SMS webhook answers with TwiML <Message>, one thread per contact and number keeps the
 * context, and the carrier keywords are honoured (docs/telephony.md#texts):
 *  - STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT (also REVOKE, OPTOUT): the contact is opted out,
 *    stored on the thread; nothing more is sent to them — no assistant replies, no owner replies —
 *    until they text START. On Twilio, its Advanced Opt-Out sends the confirmation (a message from us
 *    would be blocked); the simulated carrier has none, so Switchboard sends it.
 *  - START, YES, UNSTOP: opted back in, with a confirmation.
 *  - HELP, INFO: who this is and how to stop (answered even when opted out, as the carriers require).
 * Keywords count when they are the whole message (case and surrounding punctuation ignored).
 */
const KEYWORDS: Record<string, "stop" | "start" | "help"> = {
  STOP: "stop",
  STOPALL: "stop",
  UNSUBSCRIBE: "stop",
  CANCEL: "stop",
  END: "stop",
  QUIT: "stop",
  REVOKE: "stop",
  OPTOUT: "stop",
  START: "start",
  YES: "start",
  UNSTOP: "start",
  HELP: "help",
  INFO: "help",
};

export function carrierKeyword(body: string): "stop" | "start" | "help" | null {
  const word = body.trim().replace(/^[\s"'.!?]+|[\s"'.!?]+$/g, "").toUpperCase();
  return KEYWORDS[word] ?? null;
}

export const SMS_TEXTS = {
  stopped: "You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.",
  started: "You have successfully been re-subscribed to messages from this number. Reply HELP for help. Reply STOP to unsubscribe.",
  help: (biz: string, number: string) =>
    `${biz}: texts to ${number} are answered by ${biz}'s assistant; call ${number} to reach the team. Msg & data rates may apply. Reply STOP to unsubscribe.`,
  fallback: (biz: string) => `Thanks for your message. The team at ${biz} will get back to you soon.`,
};

type Thread = typeof messageThreads.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

/** The thread's last messages as the model's history (the contact is the user). */
async function threadHistory(db: DbOrTx, thread: Thread, before: string): Promise<ChatMessage[]> {
  const rows = await db
    .select({ id: messages.id, direction: messages.direction, body: messages.body, intent: messages.intent })
    .from(messages)
    .where(and(eq(messages.threadId, thread.id), eq(messages.organizationId, thread.organizationId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_TURNS + 1);
  return rows
    .filter((r) => r.id !== before)
    .slice(0, HISTORY_TURNS)
    .reverse()
    .map((r) => ({ role: r.direction === "inbound" ? ("user" as const) : ("assistant" as const), content: r.body, intent: r.intent }));
}

async function replayReply(db: Db, inbound: MessageRow): Promise<Response> {
  const [reply] = await db
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.replyToId, inbound.id), eq(messages.organizationId, inbound.organizationId)))
    .limit(1);
  return twimlResponse(messageTwiml(reply?.body ?? null));
}

export type SmsDeps = { llm?: LlmProvider; replyTimeoutMs?: number; /** The appointment book's clock and messaging (tests fix the clock). */ booking?: BookingDeps };

/**
 * POST smsUrl. Unknown number → an empty <Response/>, nothing written; every other text is verified,
 * stored once per MessageSid (a retry gets the same reply back), and answered per the rules above.
 */
export async function receiveSms(db: Db, req: CarrierRequest, deps: SmsDeps = {}): Promise<Response> {
  const number = await verifiedNumber(db, req);
  if (!number) return twimlResponse(messageTwiml(null));
  if (!number.isActive) return twimlResponse(messageTwiml(null));
  const { MessageSid: messageSid, From: from } = req.params;
  const body = (req.params.Body ?? "").slice(0, 1600);
  if (!messageSid || !from) throw badRequest("MessageSid and From are required", { ...(messageSid ? {} : { MessageSid: "Required" }), ...(from ? {} : { From: "Required" }) });

  const [existing] = await db.select().from(messages).where(eq(messages.providerMessageSid, messageSid));
  if (existing) {
    if (existing.organizationId !== number.organizationId) return twimlResponse(messageTwiml(null));
    return replayReply(db, existing);
  }

  const thread = await threadFor(db, number.organizationId, number.id, from);
  // "YES" is a carrier opt-in keyword, and also the answer to "Shall I book it?": while a booking
  // waits for it in this thread (and the contact is not opted out), it answers the booking.
  const booking = deps.booking ?? {};
  let keyword = carrierKeyword(body);
  const bookingUnderWay = !thread.optedOut && (await bookingInProgress(db, number.organizationId, "sms", thread.id, booking));
  if (keyword === "start" && bookingUnderWay && /^\W*yes\W*$/i.test(body)) keyword = null;
  const [inbound] = await db
    .insert(messages)
    .values({
      id: crypto.randomUUID(),
      organizationId: number.organizationId,
      phoneNumberId: number.id,
      threadId: thread.id,
      providerMessageSid: messageSid,
      direction: "inbound",
      fromNumber: from,
      toNumber: number.phoneNumber,
      body,
      status: "received",
      intent: keyword ? `keyword:${keyword}` : null,
    })
    .onConflictDoNothing({ target: messages.providerMessageSid })
    .returning();
  if (!inbound) {
    const [raced] = await db.select().from(messages).where(eq(messages.providerMessageSid, messageSid));
    return raced && raced.organizationId === number.organizationId ? replayReply(db, raced) : twimlResponse(messageTwiml(null));
  }
  await db.update(messageThreads).set({ lastMessageAt: new Date() }).where(eq(messageThreads.id, thread.id));
  await queueProviderDeliveries(db, number.organizationId, "message.received", { phone: from, messageId: inbound.id }); // HubSpot: the texter's contact

  const biz = (await businessInfo(db, number.organizationId)).name;
  // A2P 10DLC (lib/compliance/messaging-registration.ts): while the registration waits, a reply from a
  // US long code is not put in the TwiML (carriers would block it); it waits in the queue with the
  // reason, shown to the owner, and the release job sends it into this thread on approval.
  const hold = await messagingHold(db, number.organizationId, number);
  const send = async (text: string, sentBy: "assistant" | "system", intent: string | null = null): Promise<{ response: Response; message: MessageRow | null }> => {
    if (hold) {
      // An opt-out's confirmation still goes to the opted-out number on release; any other reply does not.
      const origin = intent === "opt_out" ? "opt_out_confirmation" : "sms_reply";
      await holdText(db, { organizationId: number.organizationId, phoneNumberId: number.id, to: from, body: text, origin, reason: hold, replyToId: inbound.id, sentBy, intent });
      await recordAction(db, { organizationId: number.organizationId, messageId: inbound.id, type: "reply_held", detail: { contact: from, reason: hold } });
      return { response: twimlResponse(messageTwiml(null)), message: null };
    }
    const [out] = await db
      .insert(messages)
      .values({
        id: crypto.randomUUID(),
        organizationId: number.organizationId,
        phoneNumberId: number.id,
        threadId: thread.id,
        direction: "outbound",
        fromNumber: number.phoneNumber,
        toNumber: from,
        body: text,
        status: "sent",
        sentBy,
        replyToId: inbound.id,
        intent,
      })
      .returning();
    return { response: twimlResponse(messageTwiml(text)), message: out };
  };

  if (keyword === "stop") {
    await optOutThread(db, thread.id);
    // The one opt-out (lib/phone/messages/opt-out.ts): the number, every thread with it, the words.
    await optOut(db, { organizationId: number.organizationId, phone: normalizePhone(from) ?? from, words: body.trim(), channel: "sms", messageId: inbound.id });
    return number.provider === "simulated" ? (await send(SMS_TEXTS.stopped, "system", "opt_out")).response : twimlResponse(messageTwiml(null));
  }
  if (keyword === "start") {
    await db.update(messageThreads).set({ optedOut: false, optedOutAt: null }).where(eq(messageThreads.id, thread.id));
    const phone = normalizePhone(from);
    if (phone) await clearOptOut(db, number.organizationId, phone);
    await recordAction(db, { organizationId: number.organizationId, messageId: inbound.id, type: "opted_in", detail: { contact: from } });
    return (await send(SMS_TEXTS.started, "system")).response;
  }
  if (keyword === "help") return (await send(SMS_TEXTS.help(biz, number.phoneNumber), "system")).response;
  if (thread.optedOut) return twimlResponse(messageTwiml(null));
  // What the text says, decided by the same engine turn as a call (lib/agents/conversation/turn.ts), read in
  // the business's zone at the text's clock. A text renders only what a text can: erasure, opt-out in
  // any words, "are you a robot?"; everything else is answered below (booking dialogue or the model).
  const profileNow = await businessInfo(db, number.organizationId);
  const assistantNow = await assistantForNumber(db, number.organizationId, number.assistantId);
  const turnInput: TurnInput = {
    db,
    channel: "sms",
    organizationId: number.organizationId,
    caller: normalizePhone(from) ?? from,
    text: body,
    hear: hearingContext(profileNow, await loadTurnContext(db, number.organizationId), { now: booking.now?.() ?? new Date() }),
    situation: { takingMessage: false, bookingActive: bookingUnderWay, forwardTo: null, rules: assistantNow?.callRules ?? DEFAULT_CALL_RULES, silentPrompts: 0, canTransfer: false },
    business: biz,
    assistantName: assistantNow?.persona.name ?? null,
    record: { messageId: inbound.id },
    answers: TEXT_ANSWERS,
  };
  const decided = body.trim() ? await decideTurn(turnInput) : null;
  const heard = decided?.understanding ?? null;
  const sureOf = (...intents: string[]) => Boolean(heard && intents.includes(heard.intent) && heard.confidence >= 0.6);
  if (decided?.decision.kind === "forget") {
    return (await send((await renderTextLine(turnInput, decided)) ?? FORGET_ME.text(biz), "system")).response;
  }
  // Opt-out in any words ("stop texting me", "take me off your list"): as STOP, recorded with the words;
  // this reply is the one confirmation.
  if (decided?.decision.kind === "opt_out") {
    await optOutThread(db, thread.id);
    await actOn(turnInput, decided);
    return (await send(SMS_TEXTS.stopped, "system", "opt_out")).response;
  }

  // The block list holds for texts too: no reply, marked spam with the reason.
  const listed = await listEntryFor(db, number.organizationId, from);
  if (listed === "block") {
    await db.update(messages).set({ isSpam: true, spamScore: 100, spamReasons: [SPAM.blockList] }).where(eq(messages.id, inbound.id));
    return twimlResponse(messageTwiml(null));
  }
  if (listed === "allow") await db.update(messages).set({ spamScore: 0, spamReasons: [SPAM.allowList] }).where(eq(messages.id, inbound.id));
  // The signals a person can check (bursts, neighbouring numbers, shared reports, links): over the
  // organization's threshold the text is spam — no reply, no credit spent.
  let verdict = { score: 0, reasons: [] as string[] };
  if (listed !== "allow") {
    verdict = await scoreTexter(db, { organizationId: number.organizationId, sender: from, body, now: new Date(), messageId: inbound.id });
    const { spamThreshold } = await getCallPolicy(db, number.organizationId);
    const isSpam = verdict.score >= spamThreshold;
    if (verdict.score > 0 || isSpam) await db.update(messages).set({ isSpam, spamScore: verdict.score, spamReasons: verdict.reasons }).where(eq(messages.id, inbound.id));
    if (isSpam) return twimlResponse(messageTwiml(null));
    // A pitch understanding is sure of (merchant rates, SEO, crypto): spam before any cost — no reply, no credit, no contact.
    if (sureOf("spam")) {
      await db
        .update(messages)
        .set({ isSpam: true, spamScore: Math.max(verdict.score, spamThreshold), spamReasons: [...verdict.reasons, SPAM.pitchText], intent: "spam" })
        .where(eq(messages.id, inbound.id));
      return twimlResponse(messageTwiml(null));
    }
  }
  // Only a texter who is not spam is remembered as a contact.
  await rememberCaller(db, number.organizationId, from, { utterances: [body] });

  // A Spanish text asking for a call, with a name: the engine writes the task and answers in Spanish
  // (the local responder answers in English only).
  if (decided?.decision.kind === "take_message" && decided.lang === "es") {
    const outcome = await actOn({ ...turnInput, answers: TEXT_ANSWERS.filter((k) => k !== "take_message") }, decided);
    if (outcome.kind === "line" && outcome.line) {
      const disclosed = await withTextNotice(db, { organizationId: number.organizationId, threadId: thread.id, from, fromState: req.params.FromState, to: number.phoneNumber, toState: req.params.ToState, language: heard?.language }, outcome.line);
      return (await send(disclosed, "assistant", "human_handoff")).response;
    }
  }

  // "Are you a robot?": the engine's truthful answer, free (a fixed line).
  if (decided?.decision.kind === "robot") {
    const line = await renderTextLine(turnInput, decided);
    if (line) {
      const disclosed = await withTextNotice(db, { organizationId: number.organizationId, threadId: thread.id, from, fromState: req.params.FromState, to: number.phoneNumber, toState: req.params.ToState, language: heard?.language }, line);
      return (await send(disclosed, "system", "robot")).response;
    }
  }

  // Replies to appointment texts (C confirm, R reschedule, 1–3 a new time) come before the assistant.
  if (!bookingUnderWay) {
    const handled = await handleAppointmentReply(db, number.organizationId, from, body, booking);
    if (handled.handled) {
      await db.update(messages).set({ intent: "appointment" }).where(eq(messages.id, inbound.id));
      if (!handled.reply) return twimlResponse(messageTwiml(null));
      const { response, message } = await send(handled.reply, "system", "appointment");
      if (message) await recordAction(db, { organizationId: number.organizationId, messageId: message.id, type: "texted_back", detail: { contact: from, intent: "appointment", reply: handled.action } });
      return response;
    }
  }

  const assistant = assistantNow;
  if (!assistant || !body.trim()) return twimlResponse(messageTwiml(null));

  const reference = `sms-reply:${inbound.id}`;
  const started = performance.now();
  const bookingTurns: DialogueTurn[] = [];
  // Booking by text: the dialogue answers turns about appointments, the model everything else.
  const llm = bookingAwareLlm(db, number.organizationId, deps.llm ?? (await selectLlm(db, number.organizationId)), { channel: "sms", ref: thread.id, callerPhone: from, heard: () => bookingHeard(heard), conversation: { record: { messageId: inbound.id } } }, booking, (t) => {
    bookingTurns.push(t);
  });
  const profile = await businessInfo(db, number.organizationId);
  // What the business remembers about the sender (name, stated preferences, earlier calls, open follow-ups), as calls get it.
  const caller = memoryForModel(await memoryFor(db, number.organizationId, from));
  let reply: Awaited<ReturnType<LlmProvider["generateReply"]>>;
  try {
    // Charged once, refunded once if the reply fails (lib/agents/conversation/turn.ts).
    reply = await paidTurn(db, { channel: "sms", organizationId: number.organizationId, reference, metadata: { messageId: inbound.id } }, async () => {
      await db.update(messages).set({ costCredits: creditPrices.smsReply }).where(eq(messages.id, inbound.id));
      return llm.generateReply(
        { assistant: personaForModel(assistant), profile, history: await threadHistory(db, thread, inbound.id), text: body, ...(caller.length ? { caller } : {}) },
        { signal: AbortSignal.timeout(deps.replyTimeoutMs ?? 10_000) },
      );
    });
  } catch (error) {
    // Out of credits: the text waits for the team in Call History.
    if (isOutOfCredits(error)) return twimlResponse(messageTwiml(null));
    if (!(error instanceof TurnFailedError)) throw error;
    console.error(`[sms] the assistant's reply to ${inbound.id} failed:`, error.message);
    if (error.refunded > 0) await db.update(messages).set({ creditedBack: error.refunded }).where(eq(messages.id, inbound.id));
    return (await send(SMS_TEXTS.fallback(biz), "system")).response;
  }
  {
    const llmMs = performance.now() - started;
    await db.update(messages).set({ intent: reply.intent }).where(eq(messages.id, inbound.id));
    // The first reply of a conversation carries the AI disclosure (lib/compliance/text-notice.ts).
    const disclosed = await withTextNotice(db, { organizationId: number.organizationId, threadId: thread.id, from, fromState: req.params.FromState, to: number.phoneNumber, toState: req.params.ToState, language: heard?.language }, reply.text);
    const { response, message } = await send(disclosed, "assistant", reply.intent);
    if (reply.intent === "spam" && listed !== "allow") {
      // Spam costs nothing: the reply's credit comes back through the ledger.
      const back = await changeCredits(db, number.organizationId, "refund", creditPrices.smsReply, { reason: "Credit back: spam text", reference: `sms-credit-back:${inbound.id}`, metadata: { messageId: inbound.id } });
      await db
        .update(messages)
        .set({
          isSpam: true,
          spamScore: Math.min(100, verdict.score + SPAM_POINTS.recorded),
          spamReasons: [...verdict.reasons, SPAM.pitchText],
          ...(back.applied ? { creditedBack: creditPrices.smsReply } : {}),
        })
        .where(eq(messages.id, inbound.id));
    }
    if (reply.knowledgeGap) {
      await recordKnowledgeGap(db, {
        organizationId: number.organizationId,
        question: reply.knowledgeGap.question,
        source: "sms",
        messageId: inbound.id,
        assistantId: assistant.id,
        replyText: reply.text,
      });
    }
    const urgent = sureOf("emergency", "complaint") || URGENT_WORDS.test(body);
    // The model's take_message already wrote this text's task (with the name and message it was given).
    if (!reply.messageTaken && (reply.intent === "human_handoff" || reply.intent === "complaint" || asksForCallback(body) || urgent || sureOf("callback", "message", "person"))) {
      const name = heard?.name ?? (await memoryFor(db, number.organizationId, from))?.name ?? null;
      const made = await createTask(db, {
        urgent,
        organizationId: number.organizationId,
        kind: "message",
        title: TASK_TITLES.text(who(name, from), body),
        detail: body,
        contactNumber: from,
        contactName: name,
        messageId: inbound.id,
        sourceKey: `message:${inbound.id}`,
      });
      // The owner hears of it at once (Settings → Notifications → Messages, or Urgent tasks).
      if (made) {
        await notifyOwners(db, {
          organizationId: number.organizationId,
          kind: urgent ? "task.urgent" : "text.message",
          title: urgent ? OWNER_NOTICES.urgent(who(name, from)) : OWNER_NOTICES.text(who(name, from)),
          body,
          link: "/tasks",
        });
      }
    }
    await recordAssistantReply(db, {
      id: crypto.randomUUID(),
      organizationId: number.organizationId,
      assistantId: assistant.id,
      source: "sms",
      intent: reply.intent,
      inputText: body,
      replyText: reply.text,
      llmProvider: llm.name,
      llmTotalMs: Math.round(llmMs),
      totalMs: Math.round(performance.now() - req.receivedAt),
    });
    // A held reply's actions point at the text it answers (its own row exists once it is sent).
    const actionOn = message?.id ?? inbound.id;
    if (message) await recordAction(db, { organizationId: number.organizationId, messageId: message.id, type: "texted_back", detail: { contact: from, intent: reply.intent } });
    for (const t of bookingTurns) {
      if (!t.appointment) continue;
      const type = t.events.includes("moved") ? "appointment_moved" : t.events.includes("cancelled") ? "appointment_cancelled" : "appointment_booked";
      await recordAction(db, { organizationId: number.organizationId, messageId: actionOn, type, detail: { appointmentId: t.appointment.id, readBack: t.appointment.readBack } });
    }
    return response;
  }
}

/** The engine's line for a text (erasure, "are you a robot?"): written by the engine's turn. */
async function renderTextLine(input: TurnInput, decided: Decided): Promise<string | null> {
  const outcome = await actOn(input, decided);
  return outcome.kind === "line" ? outcome.line : null;
}

async function optOutThread(db: DbOrTx, threadId: string) {
  await db.update(messageThreads).set({ optedOut: true, optedOutAt: new Date() }).where(eq(messageThreads.id, threadId));
}

// ─── The owner's side: the thread and replies from Call History ──────────────────────────────

/**
 * POST /api/messages/{id}/reply: the owner answers a thread, sent through the carrier that holds the
 * number. Refused (409) when the contact opted out, the number is inactive or gone, or a Twilio
 * number's credentials are gone; 502 when the carrier refuses.
 */
export async function replyToThread(db: Db, organizationId: string, messageId: string, body: string, userId: string): Promise<ThreadMessage> {
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.organizationId, organizationId)));
  if (!message) throw notFound("Message");
  const thread = await threadOfMessage(db, organizationId, message, true);
  if (!thread) throw conflict("This text has no number of yours to reply from any more.");
  await assertMayText(db, organizationId, thread.contactNumber);
  const [number] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, thread.phoneNumberId), eq(phoneNumbers.organizationId, organizationId)));
  if (!number) throw conflict("This text has no number of yours to reply from any more.");
  if (!number.isActive) throw conflict(`${number.phoneNumber} is inactive: switch it on in Phone Numbers to reply from it.`);
  const provider = await getTelephonyProviderFor(db, organizationId, number.provider);
  if (!provider) throw conflict(`${number.phoneNumber} is a Twilio number and no Twilio credentials are set any more: add them in Settings → API Keys.`);
  await assertRegistrationAllowsTexts(db, organizationId, number); // A2P 10DLC (lib/compliance/messaging-registration.ts)

  let sent;
  try {
    sent = await provider.sendSms({ from: number.phoneNumber, to: thread.contactNumber, body });
  } catch (error) {
    if (error instanceof TelephonyError) throw new HttpError(error.kind === "invalid" ? 400 : 502, error.message);
    throw error;
  }
  const [row] = await db
    .insert(messages)
    .values({
      id: crypto.randomUUID(),
      organizationId,
      phoneNumberId: number.id,
      threadId: thread.id,
      providerMessageSid: sent.sid,
      direction: "outbound",
      fromNumber: number.phoneNumber,
      toNumber: thread.contactNumber,
      body,
      status: sent.status === "delivered" ? "delivered" : "sent",
      sentBy: "owner",
    })
    .returning();
  await db.update(messageThreads).set({ lastMessageAt: new Date() }).where(eq(messageThreads.id, thread.id));
  await recordAction(db, { organizationId, messageId: row.id, type: "owner_replied", detail: { contact: thread.contactNumber, userId } });
  return { id: row.id, direction: "outbound", body: row.body, status: row.status, sentBy: "owner", createdAt: row.createdAt.toISOString() };
}

