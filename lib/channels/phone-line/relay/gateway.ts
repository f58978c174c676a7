import "server-only";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import twilio from "twilio";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { Db } from "@/db/client";
import { calls, organizations, type CallMode, type TranscriptTurn } from "@/db/schema";
import { HttpError } from "@/lib/platform/http/errors";
import { mentionedWhen } from "@/lib/platform/providers/llm/intents";
import type { BusinessInfo, LlmProvider } from "@/lib/platform/providers/llm/interface";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { memoryFor, memoryForModel } from "@/lib/phone/callers/memory";
import { markCallStayedOn } from "@/lib/compliance/consent";
import { capStopsAssistant, getCallPolicy, type CallPolicy } from "@/lib/phone/routing/policy";
import { ROUTED } from "@/lib/platform/text/routing";
import { assistantById, businessInfo, personaForModel, type ResolvedAssistant } from "@/lib/phone/voice/context";
import { carrierAccountFor } from "@/lib/phone/telephony/account";
import { recordAction } from "@/lib/phone/telephony/actions";
import { CALL_LINES } from "../voice/lines";
import { abandonBooking, bookingAwareLlm, bookingStatus } from "@/lib/scheduling/dialogue/conversation";
import { hearingContext, loadTurnContext, type TurnContext } from "@/lib/agents/conversation/context";
import { DEFAULT_CALL_RULES } from "@/lib/agents/conversation/call-rules";
import { bookingHeard } from "@/lib/agents/conversation/engine";
import { actOn, carrierName, decideTurn, openTurn, hear, languageOf, messageReasonOf, type TurnInput } from "@/lib/agents/conversation/turn";
import type { Understanding } from "@/lib/agents/conversation/understanding/types";
import type { BookingDeps } from "@/lib/scheduling/service";
import { historyOf, numberOfCall, type CallRow, type NumberRow } from "../voice/runtime";
import { gatewayPublicBase, RELAY_PATH, setGatewayListeningPort } from "@/lib/phone/telephony/relay/urls";
import { recordAssistantReply } from "@/lib/agents/assistants/replies";
import { DEFAULT_RELAY_SETTINGS, isBackchannel, unheardRest, type RelaySettings } from "@/lib/phone/telephony/relay/settings";

/**
 * The ConversationRelay gateway: the low-latency path for numbers set to streaming. Twilio does the
 * speech recognition and synthesis and talks to us over one WebSocket per call; serverless hosts
 * hold no sockets, so this is its own Node server (`npm run gateway`, or started beside the app by
 * `npm start` — in the app's process, which shares embedded PGlite's single connection).
 *
 * Protocol (Twilio's "Getting and sending WebSocket messages"):
 *   in:  setup {callSid, from, to, customParameters…} · prompt {voicePrompt, lang, last} ·
 *        interrupt {utteranceUntilInterrupt, durationUntilInterruptMs} · dtmf {digit} · error {description}
 *   out: text {token, last} streamed as the model writes · end {handoffData} (a JSON string)
 * The upgrade request is verified like a webhook: X-Twilio-Signature over the wss:// URL (no
 * parameters), keyed with the auth token of the account that owns the call's number.
 */

export type GatewayDeps = {
  /** Overrides the organization's language model (tests and the benchmark). */
  llm?: LlmProvider;
  /** How long to let a closing line play before ending the session (ms per character, capped). */
  speechMsPerChar?: number;
  log?: (message: string) => void;
  /**
   * Per streamed reply: the gateway's own time before the model request went out, and the model's
   * time to its first token as seen from here (SDK, network and model) — the benchmark separates them.
   */
  onTurnTiming?: (timing: { beforeModelMs: number; modelFirstTokenMs: number }) => void;
  /** The appointment book's clock and messaging (tests fix the clock). */
  booking?: BookingDeps;
  /**
   * After Twilio reports an interrupt, how long the reply is held (not cut) waiting for the caller's
   * words: a backchannel ("uh-huh") resumes it, anything else — or nothing within this time — cuts it.
   */
  backchannelWaitMs?: number;
};

export type RelayGateway = { port: number; url: string; close(): Promise<void> };

type InMessage =
  | { type: "setup"; callSid?: string; from?: string; to?: string; customParameters?: Record<string, string> }
  | { type: "prompt"; voicePrompt?: string; lang?: string; last?: boolean }
  | { type: "interrupt"; utteranceUntilInterrupt?: string; durationUntilInterruptMs?: number | string }
  | { type: "dtmf"; digit?: string }
  | { type: "error"; description?: string };

type Reply = {
  abort: AbortController;
  /** Everything sent to Twilio so far (what the caller would hear if nothing interrupts). */
  sent: string;
  /** Index of the assistant turn in the transcript once it is stored; null while still streaming. */
  turnIndex: number | null;
  done: boolean;
  /**
   * Twilio stopped playing it (an interrupt) and the caller's words are not in yet: tokens are held
   * here instead of sent, until a backchannel resumes the reply or other words cut it.
   */
  held: { heard: string; timer: NodeJS.Timeout } | null;
};

/** How long a reply interrupted by the caller waits for their words before it counts as cut off. */
const BACKCHANNEL_WAIT_MS = 1200;

/** The question that ends a booking read-back (lib/scheduling/dialogue): "Shall I book it?". */
const READ_BACK_QUESTION = /Shall I (?:book it|make the change|cancel it)\?\s*$/i;
/** A bare yes ("yes", "yeah, that's right", "sure"), a few words at most. */
const AFFIRMATIVE = /^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|correct|right|that'?s right|go ahead|please do|s[ií])\b[^?]{0,30}$/i;
export const FINISH_READ_BACK = "Let me finish reading it back.";

/** Under this many credits, a streamed reply waits for its credit before the first token. */
const LOW_BALANCE = 5;

function jsonb(value: unknown) {
  return sql`${JSON.stringify(value)}::jsonb`;
}

/** One call's socket. Turns run one at a time; an interrupt or a new prompt cuts the current reply off. */
class RelaySession {
  private transcript: TranscriptTurn[];
  private mode: CallMode;
  private partial = "";
  private reply: Reply | null = null;
  private setupDone = false;
  private ended = false;
  private chain: Promise<void> = Promise.resolve();
  /** What the business remembers about the caller, for the model (loaded once; emptied by "forget me"). */
  private callerMemory: Promise<string[]> | null = null;
  /** What understanding read in the caller's last words (the booking dialogue reads the name and the intent). */
  understanding: Understanding | null = null;
  /** The organization's call policy, read once per call: only a cap with "voicemail only" costs a query per turn. */
  private callPolicy: Promise<CallPolicy | null> | null = null;
  /** The assistant's interruption settings (also rendered into the TwiML). */
  private readonly relay: RelaySettings;
  /** Until when (performance.now()) the text sent so far is estimated to be playing. */
  private speakingUntil = 0;
  /** What was last sent ends with a question: "okay" or "yeah" after it is an answer, not a backchannel. */
  private lastAsked = false;

  constructor(
    private readonly db: Db,
    private readonly ws: WebSocket,
    private readonly call: CallRow,
    private readonly number: NumberRow | null,
    private readonly assistant: ResolvedAssistant | null,
    private readonly profile: BusinessInfo,
    private readonly llm: LlmProvider,
    private readonly deps: GatewayDeps,
    private readonly freePeriodDue: boolean,
    /** The balance as last known: with enough of it, tokens flow before the turn's credit is written. */
    private readonly credit: { balance: number | null; unlimited: boolean },
  ) {
    this.transcript = [...call.transcript];
    // A reconnect (the same call on this or another gateway) goes on from the stored state: the
    // transcript, the mode (taking a message…), the booking under way (its own rows) and what the
    // caller heard of an interrupted read-back all live in the database, read once here.
    this.mode = call.mode === "ended" ? "conversation" : call.mode;
    this.relay = assistant?.relay ?? DEFAULT_RELAY_SETTINGS;
    // Read while the caller is still being greeted, so the first reply does not wait on them.
    void this.memoryForModel();
    void this.policyForCall();
    void this.turnContext();
  }

  /** What every turn needs beyond the profile (the staff by name), read once per call. */
  private context: Promise<TurnContext> | null = null;
  private turnContext(): Promise<TurnContext> {
    this.context ??= loadTurnContext(this.db, this.call.organizationId);
    return this.context;
  }

  private send(message: Record<string, unknown>) {
    if (message.type === "text" && typeof message.token === "string" && message.token) {
      this.speakingUntil = Math.max(performance.now(), this.speakingUntil) + this.estimateSpeechMs(message.token);
      this.lastAsked = /\?\s*$/.test(message.token);
    }
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The call's mode, kept in the database as it changes (a reconnect on any gateway reads it). */
  private async setMode(mode: CallMode) {
    if (mode === this.mode) return;
    this.mode = mode;
    await this.db
      .update(calls)
      .set({ mode })
      .where(and(eq(calls.id, this.call.id), eq(calls.organizationId, this.call.organizationId)));
  }

  /** Is the assistant speaking (a reply streaming, held after an interrupt, or still playing)? */
  private speaking(): boolean {
    const reply = this.reply;
    if (reply?.held || (reply && !reply.done && !reply.abort.signal.aborted)) return true;
    // Fully sent and (by the estimate) still playing: only a statement is still being listened to —
    // after a question ("Shall I book it?") the caller's "okay" may be their answer, so it is a turn.
    return performance.now() < this.speakingUntil && !this.lastAsked;
  }

  private log(message: string) {
    (this.deps.log ?? ((m: string) => console.log(m)))(`[gateway] call ${this.call.id}: ${message}`);
  }

  /** Appends turns to the stored transcript (and the in-memory copy); returns the index of the first. */
  private async append(turns: TranscriptTurn[]): Promise<number> {
    const index = this.transcript.length;
    this.transcript.push(...turns);
    await this.db
      .update(calls)
      .set({ transcript: sql`${calls.transcript} || ${jsonb(turns)}` })
      .where(and(eq(calls.id, this.call.id), eq(calls.organizationId, this.call.organizationId)));
    return index;
  }

  private async markHeard(index: number, heard: string) {
    const turn = this.transcript[index];
    if (!turn) return;
    turn.interrupted = true;
    turn.heard = heard;
    await this.db
      .update(calls)
      .set({ transcript: sql`jsonb_set(jsonb_set(${calls.transcript}, ${`{${index},interrupted}`}::text[], 'true'::jsonb), ${`{${index},heard}`}::text[], ${jsonb(heard)})` })
      .where(and(eq(calls.id, this.call.id), eq(calls.organizationId, this.call.organizationId)));
  }

  /** Messages are handled in arrival order, except that an interrupt acts at once. */
  handle(raw: RawData) {
    const arrivedAt = performance.now();
    let message: InMessage;
    try {
      message = JSON.parse(raw.toString()) as InMessage;
    } catch {
      this.log("ignored a message that is not JSON");
      return;
    }
    if (message.type === "interrupt") {
      this.interrupt(message);
      return;
    }
    if (message.type === "prompt" && message.last !== false) {
      const reply = this.reply;
      const words = `${this.partial} ${message.voicePrompt ?? ""}`.trim();
      if (this.setupDone && this.relay.ignoreBackchannels && isBackchannel(words) && this.speaking()) {
        // "Uh-huh" while the assistant speaks: not a turn, and the reply goes on (said again from
        // where Twilio stopped it, if it did).
        this.partial = "";
        if (reply?.held) this.resume(reply);
        this.log(`ignored a backchannel ("${words}") while speaking`);
        return;
      }
      if (reply?.held) this.cut(reply);
      // The caller spoke again before the reply finished: stop it now, then answer the new words —
      // unless the owner chose that speech does not interrupt ("dtmf", "none"): the reply plays to
      // its end and the words are answered after it.
      else if (reply && !reply.done && (this.relay.interruptions === "speech" || this.relay.interruptions === "any")) reply.abort.abort();
    }
    this.chain = this.chain.then(() => this.dispatch(message, arrivedAt)).catch((error) => this.log(`failed: ${error instanceof Error ? error.message : error}`));
  }

  private async dispatch(message: InMessage, arrivedAt: number) {
    if (this.ended) return;
    switch (message.type) {
      case "setup":
        if (message.callSid !== this.call.providerCallSid) {
          this.log("setup for another call: closing");
          this.ws.close(1008, "Unknown call");
          return;
        }
        this.setupDone = true;
        // The stream starts after the notice (a <Say> before <Connect>): the caller stayed on past it.
        await markCallStayedOn(this.db, this.call.id, this.call.organizationId);
        return;
      case "prompt": {
        if (!this.setupDone) return;
        const piece = (message.voicePrompt ?? "").trim();
        if (message.last === false) {
          this.partial = `${this.partial} ${piece}`.trim();
          return;
        }
        const text = `${this.partial} ${piece}`.replace(/\s+/g, " ").trim();
        this.partial = "";
        if (text) await this.onUtterance(text, arrivedAt);
        return;
      }
      case "dtmf":
        return this.onDigit(String(message.digit ?? ""));
      case "error":
        this.log(`Twilio reported: ${message.description ?? "an error"}`);
        return;
      default:
        return;
    }
  }

  private interrupt(message: Extract<InMessage, { type: "interrupt" }>) {
    const reply = this.reply;
    if (!reply || reply.held || reply.abort.signal.aborted) return;
    const heard = (message.utteranceUntilInterrupt ?? "").trim();
    this.speakingUntil = 0;
    if (this.relay.ignoreBackchannels) {
      // Maybe only "uh-huh": hold the reply (send nothing more) until the caller's words say which.
      reply.held = { heard, timer: setTimeout(() => this.cut(reply), this.deps.backchannelWaitMs ?? BACKCHANNEL_WAIT_MS) };
      return;
    }
    this.stop(reply, heard);
  }

  /** Words after an interrupt (or none in time): the reply was cut off after all. */
  private cut(reply: Reply) {
    if (!reply.held) return;
    const { heard, timer } = reply.held;
    clearTimeout(timer);
    reply.held = null;
    this.stop(reply, heard);
  }

  /** The caller cut the reply off: stop it, and store what they heard on the turn it belongs to. */
  private stop(reply: Reply, heard: string) {
    reply.abort.abort();
    // Stored now, or as soon as the turn is.
    this.chain = this.chain.then(async () => {
      if (reply.turnIndex !== null) await this.markHeard(reply.turnIndex, heard);
    });
  }

  /** Only a backchannel: the reply goes on, from the first word the caller did not hear. */
  private resume(reply: Reply) {
    if (!reply.held) return;
    const { heard, timer } = reply.held;
    clearTimeout(timer);
    reply.held = null;
    const rest = unheardRest(reply.sent, heard);
    if (rest) this.send({ type: "text", token: rest, last: reply.done });
    else if (reply.done) this.send({ type: "text", token: "", last: true });
  }

  private estimateSpeechMs(text: string) {
    return Math.min(6000, text.length * (this.deps.speechMsPerChar ?? 65));
  }

  /** Says a fixed line, lets it play, then hands the call back to TwiML with a reason (and, for a transfer, whom to dial). */
  private async sayAndEnd(text: string | null, reason: "goodbye" | "transfer" | "voicemail", intent?: string, to?: string) {
    if (text) {
      this.send({ type: "text", token: text, last: true });
      await this.append([{ speaker: "assistant", text, at: new Date().toISOString(), ...(intent ? { intent } : {}) }]);
      await new Promise((r) => setTimeout(r, this.estimateSpeechMs(text)));
    }
    this.ended = true;
    this.send({ type: "end", handoffData: JSON.stringify({ reason, callId: this.call.id, ...(to ? { to } : {}) }) });
  }

  private async onDigit(digit: string) {
    await this.append([{ speaker: "caller", text: `Pressed ${digit}`, at: new Date().toISOString(), kind: "dtmf" }]);
    if (digit === "0" && this.number?.forwardTo) await this.sayAndEnd(CALL_LINES.connecting(this.profile.name), "transfer");
  }

  /** The engine's turn for these words (lib/agents/conversation/turn.ts): the input every channel gives it. */
  private turnInput(text: string, bookingActive: boolean, understanding: Understanding | null): TurnInput {
    const language = languageOf(this.transcript);
    return {
      db: this.db,
      channel: "relay",
      organizationId: this.call.organizationId,
      caller: this.call.fromNumber,
      text,
      understanding,
      situation: {
        takingMessage: this.mode === "message",
        messageReason: messageReasonOf(this.transcript),
        bookingActive,
        forwardTo: this.number?.forwardTo ?? null,
        rules: this.assistant?.callRules ?? DEFAULT_CALL_RULES,
        silentPrompts: 0,
        canTransfer: true,
      },
      business: this.profile.name,
      assistantName: this.assistant?.persona.name ?? null,
      transcript: this.transcript,
      language,
      record: { callId: this.call.id, step: this.transcript.length, taskKey: `call:${this.call.id}:message:turn${this.transcript.length}` },
      callerName: async () => understanding?.name ?? carrierName(this.call.callerName),
      confirmOptOut: true,
      phoneNumberId: this.call.phoneNumberId,
    };
  }

  private async onUtterance(text: string, heardAt: number) {
    // A new turn: the last reply is over (an interrupt from now on is about what this turn says).
    this.reply = null;
    const callerTurn: TranscriptTurn = { speaker: "caller", text, at: new Date().toISOString() };
    // A "yes" counts for a read-back only once the read-back finished playing: cut off before its
    // question (the relay's interrupt says how far it played), the read-back is said again, free.
    const last = [...this.transcript].reverse().find((t) => t.speaker === "assistant");
    if (last?.interrupted && READ_BACK_QUESTION.test(last.text) && !READ_BACK_QUESTION.test(last.heard ?? "") && AFFIRMATIVE.test(text)) {
      const line = `${FINISH_READ_BACK} ${last.text}`;
      await this.append([callerTurn]);
      this.reply = null;
      this.send({ type: "text", token: line, last: true });
      await this.append([{ speaker: "assistant", text: line, at: new Date().toISOString(), intent: "read_back" }]);
      return;
    }
    // The same engine as the Gather loop: leaving a flow (a person, goodbye, "wait, what?", an
    // emergency) wins over a booking under way; otherwise "yes", "no" or "cancel it" answer the booking.
    // Understanding and the booking lookup run side by side (after what the booking just asked for).
    // The booking state is read once per turn: whether one is under way, and what it just asked for.
    const [booking, context] = await Promise.all([
      this.mode === "conversation" ? bookingStatus(this.db, this.call.organizationId, "call", this.call.id, this.deps.booking) : Promise.resolve({ active: false, expects: null }),
      this.turnContext(),
    ]);
    const heard = await hear(
      text,
      hearingContext(this.profile, context, { now: this.deps.booking?.now?.() ?? new Date(), expecting: this.mode === "message" ? "message" : booking.expects, language: languageOf(this.transcript) }),
    );
    const bookingActive = booking.active;
    this.understanding = heard.understanding;
    const input = { ...this.turnInput(text, bookingActive, heard.understanding), people: context.people };
    const decided = await decideTurn(input);
    const d = decided.decision;
    if (d.kind === "silence") return;
    if (d.kind === "voicemail") {
      await this.append([callerTurn]);
      return this.sayAndEnd(null, "voicemail");
    }
    if (d.kind === "answer") {
      if (d.leaveBooking) await abandonBooking(this.db, this.call.organizationId, "call", this.call.id, this.deps.booking);
      // The cap is checked at every turn, not only when the call arrived: a reply would spend credits.
      const cap = await this.capStopsNow();
      if (cap) return this.capReached(callerTurn, cap.cap);
      return this.streamReply(text, callerTurn, heardAt);
    }
    const outcome = await actOn(input, decided);
    if (outcome.kind !== "line") return;
    await this.append([outcome.message ? { ...callerTurn, kind: "message" } : callerTurn]);
    if (d.kind === "forget") this.callerMemory = Promise.resolve([]);
    if (outcome.mode) await this.setMode(outcome.mode === "transfer" ? "conversation" : outcome.mode);
    if (outcome.end) return this.sayAndEnd(outcome.line, "goodbye", outcome.tag);
    if (outcome.transfer) return this.sayAndEnd(outcome.line, "transfer", outcome.tag, outcome.transfer.to);
    this.send({ type: "text", token: outcome.line, last: true });
    await this.append([{ speaker: "assistant", text: outcome.line, at: new Date().toISOString(), intent: outcome.tag }]);
  }

  /**
   * The month's cap (voicemail only) was reached during the call: the first time, say so and take
   * the caller's next words as a message; after that, thank them and hand the call back. No credit.
   */
  private async capReached(callerTurn: TranscriptTurn, cap: number) {
    const biz = this.profile.name;
    await this.append([callerTurn]);
    if (this.transcript.some((t) => t.speaker === "assistant" && t.text === CALL_LINES.capReached(biz))) {
      return this.sayAndEnd(CALL_LINES.capGoodbye(biz), "goodbye");
    }
    await recordAction(this.db, { organizationId: this.call.organizationId, callId: this.call.id, type: "cap_reached", detail: { cap } });
    await this.db
      .update(calls)
      .set({ routedBecause: sql`case when ${calls.routedBecause} is null then ${ROUTED.capMidCall(cap)} else ${calls.routedBecause} || '. ' || ${ROUTED.capMidCall(cap)} end` })
      .where(and(eq(calls.id, this.call.id), eq(calls.organizationId, this.call.organizationId)));
    await this.setMode("message");
    const line = CALL_LINES.capReached(biz);
    this.send({ type: "text", token: line, last: true });
    await this.append([{ speaker: "assistant", text: line, at: new Date().toISOString() }]);
  }

  /**
   * Streams the model's reply to Twilio token by token as it arrives. The credit is taken while the
   * model starts (its first token waits for it); a reply cut off by the caller is stored as far as
   * it was written, with what the caller actually heard.
   */
  private async streamReply(text: string, callerTurn: TranscriptTurn, heardAt: number) {
    if (!this.assistant) {
      await this.append([callerTurn]);
      return this.sayAndEnd(null, "voicemail");
    }
    const reference = `call-turn:${this.call.id}:relay:${crypto.randomUUID()}`;
    const reply: Reply = { abort: new AbortController(), sent: "", turnIndex: null, done: false, held: null };
    this.reply = reply;
    const history = historyOf(this.transcript);
    const started = performance.now();
    // The caller's memory, as the Gather loop gives it: name, stated preferences, earlier calls, open follow-ups.
    const caller = await this.memoryForModel();

    // The model starts first; the bookkeeping (the caller's turn, the credit) happens while it thinks.
    // Tokens wait for the credit only when the balance may not cover it (unknown or under a few
    // credits): otherwise a failed spend stops the reply instead, and the first token never waits on
    // the database.
    const events = this.llm
      .streamReply(
        { assistant: personaForModel(this.assistant), profile: this.profile, history, text, ...(caller.length ? { caller } : {}) },
        { signal: AbortSignal.any([reply.abort.signal, AbortSignal.timeout(20_000)]) },
      )
      [Symbol.asyncIterator]();
    const modelStarted = performance.now();
    let pending = events.next();
    pending.catch(() => undefined);
    const credit = openTurn(this.db, {
      channel: "call",
      organizationId: this.call.organizationId,
      reference,
      renewFree: this.freePeriodDue,
      reason: "Phone call turn (streaming)",
      metadata: { callId: this.call.id, assistantId: this.assistant!.id },
    });
    const bookkeeping = Promise.all([this.append([callerTurn]), credit.spent]);
    bookkeeping.catch(() => undefined);

    let firstTokenMs: number | null = null;
    let intent: string | null = null;
    let transferTo: string | null = null;
    let messageTaken = false;
    let failed: unknown = null;
    const mustWait = !(this.credit.unlimited || (this.credit.balance ?? 0) >= LOW_BALANCE);
    bookkeeping.then(
      ([, spent]) => {
        this.credit.balance = spent.balance;
      },
      (error) => {
        this.credit.balance = null;
        if (!mustWait) {
          failed = error;
          reply.abort.abort();
        }
      },
    );
    try {
      let paid = !mustWait;
      for (;;) {
        const { value: event, done } = await pending;
        if (done || reply.abort.signal.aborted) break;
        if (event.type === "delta") {
          if (!paid) {
            await bookkeeping;
            paid = true;
          }
          if (reply.abort.signal.aborted) break;
          if (firstTokenMs === null) {
            const now = performance.now();
            firstTokenMs = now - heardAt;
            this.deps.onTurnTiming?.({ beforeModelMs: modelStarted - heardAt, modelFirstTokenMs: now - modelStarted });
          }
          reply.sent += event.text;
          // Held after an interrupt: kept in `sent`, sent with the rest if it was only a backchannel.
          if (!reply.held) this.send({ type: "text", token: event.text, last: false });
        } else {
          intent = event.reply.intent;
          transferTo = event.reply.transfer?.to ?? null;
          messageTaken = Boolean(event.reply.messageTaken);
        }
        pending = events.next();
      }
      if (!paid) await bookkeeping;
    } catch (error) {
      if (!reply.abort.signal.aborted) failed = error;
      reply.abort.abort();
      await events.return?.(undefined).catch(() => undefined);
    }
    await bookkeeping.catch(() => undefined);
    if (failed && reply.sent) this.send({ type: "text", token: "", last: true });

    if (failed instanceof HttpError && failed.status === 402) {
      return this.sayAndEnd(null, "voicemail");
    }
    if (failed) {
      this.log(`the reply failed: ${failed instanceof Error ? failed.message : failed}`);
      await credit.refund();
      await this.db
        .update(calls)
        .set({ failureClass: (failed as { status?: number }).status === 401 ? "authentication" : /abort|timeout/i.test(String(failed)) ? "timeout" : "processing" })
        .where(and(eq(calls.id, this.call.id), eq(calls.organizationId, this.call.organizationId)));
      return this.sayAndEnd(null, "voicemail");
    }

    const interrupted = reply.abort.signal.aborted;
    if (!interrupted && !reply.held) this.send({ type: "text", token: "", last: true });
    reply.done = true;
    const replyText = reply.sent.trim();
    if (!replyText) return;
    const latencyMs = firstTokenMs === null ? undefined : Math.round(firstTokenMs);
    reply.turnIndex = await this.append([
      { speaker: "assistant", text: replyText, at: new Date().toISOString(), ...(latencyMs !== undefined ? { latencyMs } : {}), ...(intent ? { intent } : {}) },
    ]);
    await recordAssistantReply(this.db, {
      id: crypto.randomUUID(),
      organizationId: this.call.organizationId,
      assistantId: this.assistant.id,
      callId: this.call.id,
      source: "call",
      intent,
      inputText: text,
      replyText,
      llmProvider: this.llm.name,
      ttsProvider: null,
      llmFirstTokenMs: firstTokenMs === null ? null : Math.round(firstTokenMs),
      llmTotalMs: Math.round(performance.now() - started),
      totalMs: latencyMs ?? Math.round(performance.now() - heardAt),
    });
    if (intent === "appointment" && mentionedWhen(text)) {
      await recordAction(this.db, { organizationId: this.call.organizationId, callId: this.call.id, type: "booking_requested", detail: { text, when: mentionedWhen(text) } });
    }
    if (transferTo && !interrupted) {
      // The model's transfer tool succeeded: its words play out, then the Connect action dials the number.
      await new Promise((r) => setTimeout(r, this.estimateSpeechMs(replyText)));
      return this.sayAndEnd(null, "transfer", undefined, transferTo);
    }
    if (intent === "human_handoff" && !messageTaken) {
      await recordAction(this.db, { organizationId: this.call.organizationId, callId: this.call.id, type: "callback_requested", detail: { text } });
      await this.setMode("message");
    }
  }

  private policyForCall(): Promise<CallPolicy | null> {
    this.callPolicy ??= getCallPolicy(this.db, this.call.organizationId).catch((error: unknown) => {
      this.log(`call policy unavailable: ${error instanceof Error ? error.message : error}`);
      return null;
    });
    return this.callPolicy;
  }

  /** The month's cap stops the assistant now (voicemail only, reached); without such a cap no query at all. */
  private async capStopsNow() {
    const policy = await this.policyForCall();
    if (!policy?.monthlyCapCredits || policy.atCap !== "voicemail_only") return null;
    return capStopsAssistant(this.db, this.call.organizationId, new Date(), policy);
  }

  /** Loaded when the session opens and kept for the call (a failed load gives the model nothing, never fails the turn). */
  private memoryForModel(): Promise<string[]> {
    this.callerMemory ??= memoryFor(this.db, this.call.organizationId, this.call.fromNumber, { excludeCallId: this.call.id })
      .then(memoryForModel)
      .catch((error: unknown) => {
        this.log(`caller memory unavailable: ${error instanceof Error ? error.message : error}`);
        return [];
      });
    return this.callerMemory;
  }

  close() {
    if (this.reply?.held) clearTimeout(this.reply.held.timer);
    this.reply?.abort.abort();
  }
}

function reject(socket: import("node:stream").Duplex, status: number, message: string) {
  socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
  socket.destroy();
}

/**
 * Starts the gateway on `port` (0: any free port). `getDb` gives the database (the app's own handle
 * when it runs in the app's process).
 */
export async function startRelayGateway(options: { port: number; host?: string; getDb: () => Promise<Db>; deps?: GatewayDeps }): Promise<RelayGateway> {
  const deps = options.deps ?? {};
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const server = http.createServer((req, res) => {
    if (req.url === "/health") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    res.writeHead(426, { "content-type": "text/plain" }).end("ConversationRelay connects here over WebSocket.");
  });

  server.on("upgrade", (req, socket, head) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? "/", "ws://gateway");
        if (url.pathname !== RELAY_PATH) return reject(socket, 404, "Not found");
        const signature = req.headers["x-twilio-signature"];
        const callId = url.searchParams.get("callId");
        if (typeof signature !== "string" || !callId) return reject(socket, 403, "Missing signature");
        const db = await options.getDb();
        const [call] = await db.select().from(calls).where(eq(calls.id, callId));
        if (!call) return reject(socket, 403, "Invalid signature");
        const account = await carrierAccountFor(db, { organizationId: call.organizationId, provider: call.provider ?? "simulated" });
        const signedUrl = `${gatewayPublicBase()}${url.pathname}${url.search}`;
        if (!account || !twilio.validateRequest(account.authToken, signature, signedUrl, {})) return reject(socket, 403, "Invalid signature");
        const [number, assistant, org, business, llm] = await Promise.all([
          numberOfCall(db, call),
          assistantById(db, call.organizationId, call.assistantId),
          db
            .select({
              name: organizations.name,
              profile: organizations.businessProfile,
              tier: organizations.subscriptionTier,
              status: organizations.subscriptionStatus,
              periodEnd: organizations.currentPeriodEnd,
              balance: organizations.creditBalance,
            })
            .from(organizations)
            .where(eq(organizations.id, call.organizationId))
            .then((rows) => rows[0]),
          businessInfo(db, call.organizationId, { phoneNumberId: call.phoneNumberId, assistantId: call.assistantId }),
          deps.llm ?? selectLlm(db, call.organizationId),
        ]);
        if (!org) return reject(socket, 403, "Invalid signature");
        const freePeriodDue = org.tier === "free" && org.periodEnd <= new Date();
        wss.handleUpgrade(req, socket, head, (ws) => {
          const credit = { balance: org.balance, unlimited: org.tier === "enterprise" && org.status === "active" };
          // Booking by voice: the dialogue answers turns about appointments, the model everything else.
          const holder: { session?: RelaySession } = {};
          const withBooking = bookingAwareLlm(db, call.organizationId, llm, { channel: "call", ref: call.id, callerPhone: call.fromNumber, heard: () => bookingHeard(holder.session?.understanding ?? null), conversation: { canTransfer: true, forwardTo: number?.forwardTo ?? null, rules: assistant?.callRules ?? DEFAULT_CALL_RULES, record: { callId: call.id } } }, deps.booking);
          const session = new RelaySession(db, ws, call, number, assistant, business, withBooking, deps, freePeriodDue, credit);
          holder.session = session;
          ws.on("message", (data) => session.handle(data));
          ws.on("close", () => session.close());
          ws.on("error", () => session.close());
        });
      } catch (error) {
        console.error("[gateway] upgrade failed:", error instanceof Error ? error.message : error);
        reject(socket, 500, "Gateway error");
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  setGatewayListeningPort(port);
  return {
    port,
    url: `${gatewayPublicBase()}${RELAY_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
