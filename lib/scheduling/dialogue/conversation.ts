import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { bookingConversations, services } from "@/db/schema";
import { preparedStatement } from "@/lib/platform/database-statements";
import { normalizePhone, type BookingSource } from "../schema";
import { cancelAppointment, clockOf, confirmHold, findSlots, holdSlot, releaseHold, SlotTakenError, upcomingAppointmentsForPhone, type BookingDeps } from "../service";
import { organizationBooking } from "../settings";
import { addDays, fromZoned } from "../time";
import type { LlmProvider } from "@/lib/platform/providers/llm/interface";
import { bookingTurn, pausedState, type BookingPort, type DialogueContext, type DialogueState, type DialogueTurn } from "./dialogue";
import { withBookingDialogue } from "./llm";
import { bookingToolsForReply, loadModelPending, withBookingTools } from "./model-tools";
import { businessToday } from "./today";
import { conversationToolsForReply, type ModelConversationSetup } from "@/lib/agents/conversation/model-tools";

/**
 * The booking dialogue (./dialogue.ts) on the real appointment book, with its state kept in the
 * database per conversation (`booking_conversation`: a call, a text thread, a chat session, an
 * agent conversation), so a serverless phone loop picks up each turn where the last left off.
 * Every channel calls `handleBookingTurn` before its language model: `null` means "not about
 * booking" and the assistant answers as usual.
 */
export type BookingChannel = "call" | "sms" | "chat" | "voice_test" | "a2a";

export type BookingTurnInput = {
  channel: BookingChannel;
  /** What caller understanding read in this turn's words (lib/agents/conversation/understanding), when the channel has it. */
  heard?: () => DialogueContext["heard"] | undefined;
  /** The call id, thread id, chat session or agent conversation. */
  ref: string;
  /** The caller's number when the channel knows it (E.164, or anything normalizePhone reads). */
  callerPhone: string | null;
  text: string;
};

/** A conversation left alone this long starts over (its hold has long expired by itself). */
export const CONVERSATION_TTL_MS = 30 * 60_000;

const SOURCE: Record<BookingChannel, BookingSource> = { call: "phone", sms: "sms", chat: "chat", voice_test: "chat", a2a: "a2a" };

/** The appointment book as the dialogue sees it, for one organization and conversation. */
export function bookingPort(db: Db, organizationId: string, input: Pick<BookingTurnInput, "channel" | "ref">, deps: BookingDeps = {}): BookingPort {
  let timezone: Promise<string> | null = null;
  const zone = () => (timezone ??= organizationBooking(db, organizationId).then((o) => o.timezone));
  return {
    async services() {
      return db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(and(eq(services.organizationId, organizationId), eq(services.isActive, true), eq(services.bookable, true)))
        .orderBy(asc(services.name));
    },
    async findSlots(serviceId, fromDate, days, moving) {
      const tz = await zone();
      const from = fromZoned(fromDate, "00:00", tz);
      const to = fromZoned(addDays(fromDate, days), "00:00", tz);
      return (await findSlots(db, organizationId, { serviceId, from, to, ...(moving ? { excludeAppointmentId: moving } : {}) }, deps)).slots;
    },
    async hold({ serviceId, start, customerName, customerPhone, rescheduleOf }) {
      try {
        const hold = await holdSlot(
          db,
          organizationId,
          { serviceId, start, customerName, customerPhone, source: SOURCE[input.channel], sourceRef: `${input.channel}:${input.ref}`.slice(0, 200), ...(rescheduleOf ? { rescheduleOf } : {}) },
          deps,
        );
        return { ok: true, holdId: hold.holdId, readBack: hold.readBack };
      } catch (error) {
        if (error instanceof SlotTakenError) return { ok: false, alternatives: error.alternatives };
        throw error;
      }
    },
    async confirm(holdId) {
      try {
        const result = await confirmHold(db, organizationId, holdId, deps);
        return { ok: true, appointment: result.appointment, moved: result.moved };
      } catch (error) {
        if (error instanceof SlotTakenError) return { ok: false, alternatives: error.alternatives };
        throw error;
      }
    },
    async release(holdId) {
      await releaseHold(db, organizationId, holdId, deps);
    },
    async upcoming(phone) {
      const normalized = normalizePhone(phone);
      return normalized ? upcomingAppointmentsForPhone(db, organizationId, normalized, deps) : [];
    },
    async cancel(appointmentId) {
      return cancelAppointment(db, organizationId, appointmentId, { reason: "Cancelled by the customer" }, deps);
    },
  };
}

/** The conversation's booking state, or null (none, or left alone too long). */
export async function loadDialogueState(db: Db, organizationId: string, channel: BookingChannel, ref: string, now: Date): Promise<DialogueState | null> {
  // Read on every turn of every conversation: planned once (lib/platform/database-statements.ts).
  const statement = preparedStatement(db, "switchboard_booking_dialogue_state", () =>
    db
      .select({ state: bookingConversations.state, updatedAt: bookingConversations.updatedAt })
      .from(bookingConversations)
      .where(
        and(
          eq(bookingConversations.organizationId, sql.placeholder("organizationId")),
          eq(bookingConversations.channel, sql.placeholder("channel")),
          eq(bookingConversations.ref, sql.placeholder("ref")),
        ),
      ),
  );
  const [row] = await statement.execute({ organizationId, channel, ref });
  if (!row?.state) return null;
  if (Math.abs(now.getTime() - row.updatedAt.getTime()) > CONVERSATION_TTL_MS) return null;
  return row.state as unknown as DialogueState;
}

async function saveDialogueState(db: Db, organizationId: string, input: BookingTurnInput, state: DialogueState | null, now: Date) {
  const value = state as unknown as Record<string, unknown> | null;
  await db
    .insert(bookingConversations)
    .values({ id: crypto.randomUUID(), organizationId, channel: input.channel, ref: input.ref, callerPhone: input.callerPhone, state: value, updatedAt: now })
    .onConflictDoUpdate({
      target: [bookingConversations.organizationId, bookingConversations.channel, bookingConversations.ref],
      set: { state: sql`${JSON.stringify(value)}::jsonb`, updatedAt: now },
    });
}

/** Whether a booking is under way in this conversation (the channel then lets the dialogue answer "yes", "no", "cancel"…). */
export async function bookingInProgress(db: Db, organizationId: string, channel: BookingChannel, ref: string, deps: BookingDeps = {}): Promise<boolean> {
  return (await bookingStatus(db, organizationId, channel, ref, deps)).active;
}

/**
 * Whether a booking is under way and what it just asked the caller for — "name" after "May I have
 * your name?" — so understanding reads a bare answer as that ("Jay Park" is a name, not a question
 * about parking). One read of the conversation's booking state per turn.
 */
export async function bookingStatus(db: Db, organizationId: string, channel: BookingChannel, ref: string, deps: BookingDeps = {}): Promise<{ active: boolean; expects: "name" | "phone" | null }> {
  const now = clockOf(deps);
  const state = await loadDialogueState(db, organizationId, channel, ref, now);
  // A booking set aside for another question is not under way: the caller's words are theirs again.
  if (state && !state.paused) return { active: true, expects: state.stage === "name" ? "name" : state.stage === "phone" ? "phone" : null };
  return { active: (await loadModelPending(db, organizationId, { channel, ref }, now)) !== null, expects: null };
}

/** What the booking under way just asked the caller for (`bookingStatus`'s `expects`). */
export async function bookingExpects(db: Db, organizationId: string, channel: BookingChannel, ref: string, deps: BookingDeps = {}): Promise<"name" | "phone" | null> {
  return (await bookingStatus(db, organizationId, channel, ref, deps)).expects;
}

/**
 * The caller left the booking (a different question, a person, goodbye): the held time is let go and
 * the conversation's booking state cleared, so the next words are not read as an answer to it.
 */
export async function abandonBooking(db: Db, organizationId: string, channel: BookingChannel, ref: string, deps: BookingDeps = {}): Promise<void> {
  const state = await loadDialogueState(db, organizationId, channel, ref, clockOf(deps));
  if (state?.holdId) await releaseHold(db, organizationId, state.holdId, deps).catch(() => undefined);
  // Kept aside (the service, the day asked about, no hold): "do you take Cigna? … ok, 2 PM Thursday
  // then" picks the booking up where it was instead of asking for the service again.
  const aside = state ? pausedState(state) : null;
  await db
    .update(bookingConversations)
    .set({ state: aside as unknown as Record<string, unknown> | null })
    .where(and(eq(bookingConversations.organizationId, organizationId), eq(bookingConversations.channel, channel), eq(bookingConversations.ref, ref)));
}

/**
 * One turn of the booking dialogue for a conversation: null when it is not about booking (and none
 * is under way); otherwise the reply, with the state saved for the next turn.
 */
export async function handleBookingTurn(db: Db, organizationId: string, input: BookingTurnInput, deps: BookingDeps = {}): Promise<DialogueTurn | null> {
  if (!input.text.trim()) return null;
  const now = clockOf(deps);
  // Two independent reads: side by side, one round trip on a pool.
  const [state, { today, timezone }] = await Promise.all([loadDialogueState(db, organizationId, input.channel, input.ref, now), businessToday(db, organizationId, now)]);
  return continueBookingTurn(db, organizationId, input, { state, today, now, timeZone: timezone }, deps);
}

/** handleBookingTurn with the conversation's state and the business's local date already read. */
async function continueBookingTurn(
  db: Db,
  organizationId: string,
  input: BookingTurnInput,
  loaded: { state: DialogueState | null; today: string; now: Date; timeZone?: string },
  deps: BookingDeps,
): Promise<DialogueTurn | null> {
  const text = input.text.trim();
  if (!text) return null;
  const { state, today, now, timeZone } = loaded;
  const callerPhone = input.callerPhone ? normalizePhone(input.callerPhone) : null;
  const heard = input.heard?.();
  const turn = await bookingTurn(state, text, { today, callerPhone, now, ...(timeZone ? { timeZone } : {}), ...(heard ? { heard } : {}) }, bookingPort(db, organizationId, input, deps));
  if (!turn) return null;
  await saveDialogueState(db, organizationId, input, turn.state, now);
  return turn;
}

/**
 * A channel's language model with the booking dialogue (./llm.ts), for one conversation. The local
 * responder keeps the dialogue in front of it. A real model leads instead: every answered turn goes
 * to it with the booking tools (./model-tools.ts, where something can be booked) and take_message /
 * transfer (lib/agents/conversation/model-tools.ts), through which alone it acts; `conversation` says where
 * a transfer may go (the channel's forward-to, the owner's rules) and whether the channel can connect
 * a call at all.
 */
export function bookingAwareLlm(
  db: Db,
  organizationId: string,
  llm: LlmProvider,
  input: Omit<BookingTurnInput, "text"> & { conversation?: Omit<ModelConversationSetup, "channel" | "ref" | "callerPhone"> },
  deps: BookingDeps = {},
  onTurn?: (turn: DialogueTurn) => void | Promise<void>,
): LlmProvider {
  return withBookingDialogue(
    llm,
    async (text) => {
      if (!text.trim()) return null;
      const now = clockOf(deps);
      // The dialogue's state and the local date are read side by side (one round trip on a pool).
      const [state, { today, timezone }] = await Promise.all([loadDialogueState(db, organizationId, input.channel, input.ref, now), businessToday(db, organizationId, now)]);
      return continueBookingTurn(db, organizationId, { ...input, text }, { state, today, now, timeZone: timezone }, deps);
    },
    onTurn,
    {
      tools: async (reply) => {
        const talk = conversationToolsForReply(db, organizationId, { channel: input.channel, ref: input.ref, callerPhone: input.callerPhone, ...input.conversation });
        const own = withBookingTools(reply.tools, talk);
        // Booking tools only where something can be booked.
        const port = bookingPort(db, organizationId, input, deps);
        if ((await port.services()).length === 0) return own;
        return withBookingTools(own, bookingToolsForReply(db, organizationId, input, port, reply.text, deps, onTurn));
      },
    },
  );
}
