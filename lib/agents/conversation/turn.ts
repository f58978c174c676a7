import "server-only";
import type { Db } from "@/db/client";
import type { CallMode, TranscriptTurn } from "@/db/schema";
import { HttpError } from "@/lib/platform/http/errors";
import { optOut, type OptOutChannel } from "@/lib/phone/messages/opt-out";
import { sendOptOutConfirmation } from "@/lib/phone/messages/send-text";
import { forgetCaller } from "@/lib/phone/callers/memory";
import { createTask, taskExists } from "@/lib/phone/callers/tasks";
import { recordAction } from "@/lib/phone/telephony/actions";
import { FORGET_ME, TASK_TITLES, who } from "@/lib/platform/text/receptionist";
import { chargeTurn, refundTurnQuietly, type TurnCharge } from "./credits";
import { decide, type Decision, type EngineChannel, type Situation } from "./engine";
import { digitsAloud, say } from "./replies";
import { understand } from "./understanding";
import type { Language, Understanding, UnderstandingContext } from "./understanding/types";

/**
 * One turn of a conversation, for every channel (the phone's Gather loop, the ConversationRelay
 * gateway, texts, A2A, the browser voice test): what the caller said → understanding → `decide()` →
 * what the decision writes (an opt-out, an erasure, a task) → a line in the caller's language. The
 * channel only renders the outcome in its medium (TwiML, relay frames, a text, chat JSON, A2A parts).
 * An `answer` decision is composed by the channel (the booking dialogue or the language model) inside
 * `paidTurn`, the one place a turn is charged and refunded.
 */

export type TurnInput = {
  db: Db;
  channel: EngineChannel;
  organizationId: string;
  /** The caller's number (E.164) when known: opt-outs, erasure and tasks are about it. */
  caller: string | null;
  text: string;
  /** Understanding already read (the channel read it for other reasons); else it is read here. */
  understanding?: Understanding | null;
  hear?: UnderstandingContext;
  /** The business's staff by name (`loadTurnContext`): a person asked for is one of them, or nobody there. */
  people?: string[];
  situation: Omit<Situation, "channel" | "text" | "understanding">;
  business: string;
  assistantName?: string | null;
  /** The conversation so far (a repeat says the last line; a message names what was asked). */
  transcript?: TranscriptTurn[];
  language?: Language;
  /** Where the turn's records point. */
  record: { callId?: string | null; messageId?: string | null; step?: number; taskKey?: string };
  /** The name the caller gave (never a device label). */
  callerName?: () => Promise<string | null>;
  /** Decisions this channel leaves to its answer (a text has no "silence", no <Dial>, no message-taking mode). */
  answers?: Decision["kind"][];
  /** Sends the one opt-out confirmation text (calls and agents; a text's reply is its own confirmation). */
  confirmOptOut?: boolean;
  /** The number the caller reached: the confirmation text leaves from it (else the oldest active number). */
  phoneNumberId?: string | null;
};

export type TurnOutcome = {
  decision: Decision;
  understanding: Understanding | null;
  /** How long understanding took (ms), for the benchmark. */
  nluMs: number;
  lang: Language;
} & (
  | { kind: "answer" }
  | {
      kind: "line";
      /** What to say or send. */
      line: string;
      /** The transcript tag of the line (its language, or why a message is being taken). */
      tag: string;
      /** The conversation's mode after this turn. */
      mode?: CallMode;
      /** The caller's words were a message for the team (a task was written). */
      message?: { name: string | null; urgent: boolean };
      end?: boolean;
      transfer?: { to: string; emergency: boolean };
    }
  /** Decisions whose wording belongs to the channel (silence, voicemail). */
  | { kind: "channel" }
);

/** What a written channel (a text, an agent's message) leaves to its answer: no silence, no <Dial>, no message-taking mode. */
export const TEXT_ANSWERS: Decision["kind"][] = ["silence", "end", "repeat", "voicemail", "transfer", "ask_message", "take_message", "urgent_task", "answer"];

const URGENT_PREFIX: Record<Language, string> = { en: "URGENT: ", es: "URGENTE: " };

/** Understanding that never fails the turn (null when it throws). */
export async function hear(text: string, context: UnderstandingContext): Promise<{ understanding: Understanding | null; nluMs: number }> {
  if (!text.trim()) return { understanding: null, nluMs: 0 };
  const started = performance.now();
  try {
    return { understanding: await understand(text, context), nluMs: performance.now() - started };
  } catch (error) {
    console.error("[conversation] understanding failed:", error instanceof Error ? error.message : error);
    return { understanding: null, nluMs: performance.now() - started };
  }
}

function optOutChannel(channel: EngineChannel): OptOutChannel {
  return channel;
}

/** "Jess", "Jess and Marco", "Jess, Marco and Ana" (y in Spanish). */
function listOf(names: string[], lang: Language): string {
  const and = lang === "es" ? "y" : "and";
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} ${and} ${names[names.length - 1]}`;
}

/** A line that ends offering to take a message (the local responder's "Would you like to leave a message?"). */
const OFFERED_MESSAGE = /(?:leave a message|dejar un mensaje)\?\s*$/i;

export type Decided = { decision: Decision; understanding: Understanding | null; nluMs: number; lang: Language };

/** What the engine decides for these words (nothing written yet). */
export async function decideTurn(input: TurnInput): Promise<Decided> {
  const text = input.text.trim();
  const heard = input.understanding !== undefined ? { understanding: input.understanding, nluMs: 0 } : input.hear ? await hear(text, input.hear) : { understanding: null, nluMs: 0 };
  const u = heard.understanding;
  const people = input.people ?? input.hear?.people;
  const lastLine = [...(input.transcript ?? [])].reverse().find((t) => t.speaker === "assistant")?.text ?? "";
  const offeredMessage = OFFERED_MESSAGE.test(lastLine);
  const decision = decide({ ...input.situation, channel: input.channel, text, understanding: u, ...(people?.length ? { people } : {}), ...(offeredMessage ? { offeredMessage } : {}) });
  return { decision, understanding: u, nluMs: heard.nluMs, lang: u?.language ?? input.language ?? "en" };
}

/** The engine's turn: decides, writes what the decision needs, and words it. */
export async function engineTurn(input: TurnInput): Promise<TurnOutcome> {
  return actOn(input, await decideTurn(input));
}

/** Writes what a decision needs (an opt-out, an erasure, a task, a callback request) and words it. */
export async function actOn(input: TurnInput, decided: Decided): Promise<TurnOutcome> {
  const { db, organizationId } = input;
  const text = input.text.trim();
  const { decision, understanding: u, lang } = decided;
  const base = decided;
  if (input.answers?.includes(decision.kind)) return { ...base, kind: "answer" };
  const vars = { business: input.business };
  const langTag = `lang:${lang}`;
  const transcript = input.transcript ?? [];
  switch (decision.kind) {
    case "answer":
      return { ...base, kind: "answer" };
    case "silence":
    case "voicemail":
      return { ...base, kind: "channel" };
    case "end":
      return { ...base, kind: "line", line: say("goodbye", lang, vars, {}), tag: langTag, end: true };
    case "repeat": {
      const last = [...transcript].reverse().find((t) => t.speaker === "assistant");
      return { ...base, kind: "line", line: last?.text ?? say("nothingToRepeat", lang, vars, {}), tag: last?.intent ?? langTag, ...(input.situation.takingMessage ? { mode: "message" as const } : {}) };
    }
    case "robot":
      return { ...base, kind: "line", line: say("robot", lang, { ...vars, name: input.assistantName }, {}), tag: langTag };
    case "no_such_person":
      return { ...base, kind: "line", line: say("noSuchPerson", lang, { ...vars, name: decision.name, staff: listOf(decision.staff, lang) }, {}), tag: langTag };
    case "forget": {
      if (input.caller) await forgetCaller(db, organizationId, input.caller, input.channel === "sms" ? "caller_text" : undefined);
      return { ...base, kind: "line", line: input.channel === "sms" || input.channel === "a2a" ? FORGET_ME.text(input.business) : FORGET_ME.spoken, tag: langTag };
    }
    case "opt_out": {
      if (!input.caller) {
        // Nothing to opt out (an agent that did not say whose number): say so instead of pretending.
        return { ...base, kind: "line", line: OPT_OUT_WHICH_NUMBER[lang], tag: langTag };
      }
      const confirmation = input.confirmOptOut ? { body: OPT_OUT_CONFIRMATION[lang](input.business), send: (to: string, body: string) => sendOptOutConfirmation(db, organizationId, { to, body, ...(input.phoneNumberId ? { fromPhoneNumberId: input.phoneNumberId } : {}) }) } : null;
      await optOut(db, { organizationId, phone: input.caller, words: text, channel: optOutChannel(input.channel), callId: input.record.callId, messageId: input.record.messageId, confirmation });
      return { ...base, kind: "line", line: say("optedOut", lang, vars, {}), tag: langTag };
    }
    case "transfer": {
      const emergency = decision.reason === "emergency";
      return {
        ...base,
        kind: "line",
        line: say(emergency ? "connectingEmergency" : "connecting", lang, vars, { transfer: true }),
        tag: emergency ? "message:emergency" : langTag,
        mode: "transfer",
        transfer: { to: decision.to, emergency },
      };
    }
    case "ask_message": {
      if (decision.reason === "person" || decision.reason === "callback") {
        await recordAction(db, { organizationId, callId: input.record.callId, messageId: input.record.messageId, type: "callback_requested", detail: { text, step: input.record.step } });
      }
      const key = decision.reason === "emergency" ? "askEmergency" : decision.reason === "callback" ? "askCallback" : "askMessage";
      return { ...base, kind: "line", line: say(key, lang, vars, {}), tag: `message:${decision.reason}`, mode: "message" };
    }
    case "take_message":
    case "urgent_task": {
      const urgent = decision.kind === "urgent_task" || decision.urgent;
      const name = (await input.callerName?.()) ?? u?.name ?? null;
      // The request that led to the message ("is Dr. Chen in?", "have Marco call me") is part of it.
      const asked = decision.kind === "take_message" ? [...transcript].reverse().find((t) => t.speaker === "caller" && t.kind !== "message")?.text : undefined;
      const message = asked && decision.reason !== "other" ? `${asked} — ${text}` : text;
      const number = u?.phone ?? input.caller;
      const taskKey = input.record.taskKey ?? `${input.channel}:${input.record.callId ?? input.record.messageId}:message:step${input.record.step ?? 0}`;
      await recordAction(db, { organizationId, callId: input.record.callId, messageId: input.record.messageId, type: "took_message", detail: { message, step: input.record.step, urgent, taskKey, name, number } });
      const made = await createTask(db, {
        organizationId,
        kind: "message",
        title: `${urgent ? URGENT_PREFIX[lang] : ""}${TASK_TITLES.message(who(name, number ?? "an unknown number"), message)}`,
        detail: message,
        contactNumber: number ?? "",
        contactName: name,
        callId: input.record.callId ?? undefined,
        messageId: input.record.messageId ?? undefined,
        sourceKey: taskKey,
        urgent,
      });
      const backed = { task: made || (await taskExists(db, organizationId, taskKey)) };
      const key = decision.kind === "urgent_task" ? "complaintTaken" : urgent ? "urgentTaken" : "messageTaken";
      const line = say(key, lang, { ...vars, name, digits: number ? digitsAloud(number) : null }, backed);
      return { ...base, kind: "line", line, tag: langTag, mode: "conversation", message: { name, urgent } };
    }
  }
}

const OPT_OUT_WHICH_NUMBER: Record<Language, string> = {
  en: "I can take a number off our list: which phone number should no longer get texts or calls from us?",
  es: "Puedo quitar un número de nuestra lista: ¿qué número ya no debe recibir mensajes ni llamadas nuestras?",
};

const OPT_OUT_CONFIRMATION: Record<Language, (business: string) => string> = {
  en: (b) => `${b}: you're opted out and will get no more texts or calls from us. Reply START to opt back in.`,
  es: (b) => `${b}: ha sido dado de baja y no recibirá más mensajes ni llamadas nuestras. Responda START para volver a recibirlos.`,
};

/** A turn whose answer failed after its credit was spent: the credit came back (`refunded`). */
export class TurnFailedError extends Error {
  constructor(
    readonly cause: unknown,
    readonly refunded: number,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "TurnFailedError";
  }
}

/** The credit of a turn being answered: spent now, given back once if the answer fails. */
export function openTurn(db: Db, charge: TurnCharge) {
  const spent = chargeTurn(db, charge);
  spent.catch(() => undefined);
  return {
    spent,
    refund: () => refundTurnQuietly(db, { channel: charge.channel, organizationId: charge.organizationId, reference: charge.reference, actorUserId: charge.actorUserId }),
  };
}

/**
 * An answered turn, charged once: the credit is spent (before the answer, or beside it with
 * `parallel` so its round trips stay off the reply's path), the answer runs, and a failed answer
 * gives the credit back. Out of credits → the 402 HttpError; a failed answer → TurnFailedError.
 */
export async function paidTurn<T>(db: Db, charge: TurnCharge | null, run: () => Promise<T>, opts: { parallel?: boolean } = {}): Promise<T> {
  if (!charge) {
    try {
      return await run();
    } catch (error) {
      throw new TurnFailedError(error, 0);
    }
  }
  const turn = openTurn(db, charge);
  if (!opts.parallel) await turn.spent;
  const running = run();
  const [spent, ran] = await Promise.allSettled([turn.spent, running]);
  if (spent.status === "rejected") throw spent.reason;
  if (ran.status === "rejected") throw new TurnFailedError(ran.reason, await turn.refund());
  return ran.value;
}

/** Out of credits (the turn was not charged and nothing was answered). */
export function isOutOfCredits(error: unknown): boolean {
  return error instanceof HttpError && error.status === 402;
}

/** The conversation's language so far: the language of the assistant's last engine line, when it set one. */
export function languageOf(transcript: TranscriptTurn[]): Language | undefined {
  const last = [...transcript].reverse().find((t) => t.speaker === "assistant" && t.intent?.startsWith("lang:"));
  return last?.intent === "lang:es" ? "es" : undefined;
}

/** Why the conversation is taking a message (set by the line that asked for it). */
export function messageReasonOf(transcript: TranscriptTurn[]): Situation["messageReason"] {
  const asked = [...transcript].reverse().find((t) => t.speaker === "assistant" && t.intent?.startsWith("message:"));
  const reason = asked?.intent?.slice("message:".length);
  return reason === "emergency" || reason === "complaint" || reason === "person" || reason === "callback" ? reason : "other";
}

/** Labels that are not a person's name: the browser phone's "Phone panel", carriers' placeholders, a bare number. */
const NOT_A_NAME = /^(phone panel|unknown|anonymous|wireless caller|restricted|private|unavailable|web caller|browser|[+\d\s()-]+)$/i;

/** The carrier's caller name when it names a person (never a device label such as "Phone panel"). */
export function carrierName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  return trimmed && !NOT_A_NAME.test(trimmed) ? trimmed : null;
}

/** A sales pitch understanding is sure of (merchant rates, SEO, crypto): spam before any cost, on every channel. */
export function surelySpam(u: Understanding | null): boolean {
  return Boolean(u && u.intent === "spam" && u.confidence >= 0.6);
}

/** What the assistant says to a pitch before hanging up (a fixed line: nothing is charged). */
export const SPAM_DECLINED = "Thanks, but we're not interested. Please take this number off your list. Goodbye.";
