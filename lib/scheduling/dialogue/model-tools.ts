import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { bookingConversations } from "@/db/schema";
import type { ReplyTools, ToolCallResult, ToolDefinition } from "@/lib/platform/providers/llm/interface";
import { ok, refuse, toolSet, type NamedTools } from "@/lib/platform/providers/llm/tool-results";
import { normalizePhone } from "../schema";
import { clockOf, type BookingDeps } from "../service";
import type { AppointmentView, SlotView } from "../views";
import { searchFrom, type BookingPort, type DialogueTurn } from "./dialogue";
import { matchService, parseYesNo } from "./parse";
import { businessToday } from "./today";
import { fromZoned } from "../time";
import { formatWhen, whenSaid } from "@/lib/agents/conversation/when";

/**
 * The booking tools a language model gets (Anthropic tool use) for turns the deterministic dialogue
 * did not take: check availability, list the caller's appointments, hold a time, book it, release
 * it, move and cancel — executed through the same BookingPort (findSlots, holdSlot, confirmHold,
 * releaseHold, cancelAppointment) as the offline dialogue. The model cannot write before the caller
 * agreed: a hold or a cancellation first leaves a *pending read-back* (kept per conversation in
 * `booking_conversation` under the channel `<channel>:model`), and `confirm_booking` /
 * `cancel_appointment` write only when that read-back was given in an earlier turn **and** the
 * caller's own words in this turn are a yes (parseYesNo) — not the model's say-so.
 */
export type ModelConversation = { channel: string; ref: string; callerPhone: string | null };

type Pending = { kind: "book" | "move" | "cancel"; holdId?: string; appointmentId?: string; readBack: string; phone: string };

const modelChannel = (channel: string) => `${channel}:model`;
/** The same life as the dialogue's state: a pending read-back older than this is forgotten. */
const PENDING_TTL_MS = 30 * 60_000;
const MAX_SLOTS = 8;

export async function loadModelPending(db: Db, organizationId: string, conversation: Pick<ModelConversation, "channel" | "ref">, now: Date): Promise<Pending | null> {
  const [row] = await db
    .select({ state: bookingConversations.state, updatedAt: bookingConversations.updatedAt })
    .from(bookingConversations)
    .where(
      and(
        eq(bookingConversations.organizationId, organizationId),
        eq(bookingConversations.channel, modelChannel(conversation.channel)),
        eq(bookingConversations.ref, conversation.ref),
      ),
    );
  if (!row?.state) return null;
  if (Math.abs(now.getTime() - row.updatedAt.getTime()) > PENDING_TTL_MS) return null;
  return row.state as unknown as Pending;
}

async function savePending(db: Db, organizationId: string, conversation: ModelConversation, pending: Pending | null, now: Date) {
  const value = pending as unknown as Record<string, unknown> | null;
  await db
    .insert(bookingConversations)
    .values({
      id: crypto.randomUUID(),
      organizationId,
      channel: modelChannel(conversation.channel),
      ref: conversation.ref,
      callerPhone: conversation.callerPhone,
      state: value,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [bookingConversations.organizationId, bookingConversations.channel, bookingConversations.ref],
      set: { state: sql`${JSON.stringify(value)}::jsonb`, updatedAt: now },
    });
}

const phoneField = { type: "string", description: "The caller's phone number, only when the conversation has none (a chat): ask for it." };

export const BOOKING_TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    name: "resolve_date",
    description:
      "Reads a day and time exactly as the caller said it (\"the Tuesday after next around 3\", \"Saturday at 11 instead\", \"el martes a las tres\") into a local date and time in the business's time zone, from the call's clock. Always use it before check_availability or hold_slot for a spoken day, and pass its date and time to check_availability. If it answers invalid, the day does not exist or has passed: ask the caller again, never guess.",
    inputSchema: { type: "object", properties: { text: { type: "string", description: "The caller's words naming the day/time." } }, required: ["text"] },
  },
  {
    name: "check_availability",
    description:
      "Free appointment times of a service, from the business's appointment book. Offer only times this returns; never invent one. To move an appointment, pass its appointmentId (from my_appointments) so its own time counts as free for it.",
    inputSchema: {
      type: "object",
      properties: {
        service: { type: "string", description: "The service's name (or id); may be omitted when the business has one service." },
        date: { type: "string", description: "First local day to search, YYYY-MM-DD (default today)." },
        days: { type: "integer", minimum: 1, maximum: 14, description: "How many days to search (default 1 with a date, else 7)." },
        appointmentId: { type: "string", description: "The appointment being moved, when rescheduling." },
        time: { type: "string", description: "The time the caller asked for, HH:MM (24h, from resolve_date); with a date, the free times nearest to it come back." },
      },
    },
  },
  {
    name: "my_appointments",
    description: "The caller's upcoming booked appointments, found by their phone number, each with its appointmentId and a read-back.",
    inputSchema: { type: "object", properties: { phone: phoneField } },
  },
  {
    name: "hold_slot",
    description:
      "Holds a free time (a `start` from check_availability) for 5 minutes. This does NOT book it: read the returned read-back to the caller and ask them to confirm, then call confirm_booking after they say yes in their next message. With appointmentId it holds a new time for that appointment (a move).",
    inputSchema: {
      type: "object",
      properties: {
        start: { type: "string", description: "The slot's start exactly as check_availability returned it (ISO)." },
        customerName: { type: "string", description: "The caller's name (not needed for a move)." },
        service: { type: "string", description: "The service's name (or id); not needed for a move." },
        appointmentId: { type: "string", description: "The appointment being moved, when rescheduling." },
        phone: phoneField,
      },
      required: ["start"],
    },
  },
  {
    name: "confirm_booking",
    description:
      "Writes the held booking (or move). Only after you read it back and the caller said yes in their latest message; it is refused otherwise. Say it is booked only after this succeeds.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "release_hold",
    description: "Lets go of the held time (the caller said no or changed their mind).",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "cancel_appointment",
    description:
      "Cancels one of the caller's appointments in two steps: the first call only returns a read-back to ask the caller about; call it again after the caller said yes in their next message.",
    inputSchema: {
      type: "object",
      properties: { appointmentId: { type: "string", description: "From my_appointments; omit to answer the cancellation you asked about." }, phone: phoneField },
    },
  },
];

const text = z.string().trim().max(200);
const inputs = {
  resolve_date: z.object({ text: z.string().trim().min(1).max(200) }),
  check_availability: z.object({
    service: text.optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD")
      .optional(),
    days: z.coerce.number().int().min(1).max(14).optional(),
    appointmentId: text.optional(),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "time must be HH:MM (24h)")
      .optional(),
  }),
  my_appointments: z.object({ phone: text.optional() }),
  hold_slot: z.object({ start: z.iso.datetime({ offset: true }), customerName: text.optional(), service: text.optional(), appointmentId: text.optional(), phone: text.optional() }),
  confirm_booking: z.object({}),
  release_hold: z.object({}),
  cancel_appointment: z.object({ appointmentId: text.optional(), phone: text.optional() }),
};

const spoken = (s: SlotView) => `${s.label.day}, ${s.label.date} at ${s.label.time}`;
const slotsOut = (slots: SlotView[]) => slots.slice(0, MAX_SLOTS).map((s) => ({ start: s.start, when: spoken(s) }));

/** The MAX_SLOTS slots nearest to `target`, in time order. */
function nearest(slots: SlotView[], target: Date): SlotView[] {
  const distance = (s: SlotView) => Math.abs(new Date(s.start).getTime() - target.getTime());
  return [...slots]
    .sort((a, b) => distance(a) - distance(b))
    .slice(0, MAX_SLOTS)
    .sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime());
}

export type ModelBookingTools = NamedTools;

/**
 * The booking tools for one reply. `callerText` is what the caller said in this turn (the only
 * evidence of a yes); `onWrite` sees each booking, move and cancellation (the channel records it).
 */
export function bookingToolsForReply(
  db: Db,
  organizationId: string,
  conversation: ModelConversation,
  port: BookingPort,
  callerText: string,
  deps: BookingDeps = {},
  onWrite?: (turn: DialogueTurn) => void | Promise<void>,
): ModelBookingTools {
  // Read-backs given during this very reply: the caller has not heard them yet, so no yes can answer them.
  const askedThisReply = new Set<string>();
  const callerSaidYes = parseYesNo(callerText) === "yes";
  const now = () => clockOf(deps);

  const phoneOf = (given?: string) => (conversation.callerPhone ? normalizePhone(conversation.callerPhone) : null) ?? (given ? normalizePhone(given) : null);

  async function serviceOf(named: string | undefined) {
    const services = await port.services();
    if (services.length === 0) return { error: "Nothing can be booked here right now: offer to take a message." };
    const found = named ? (services.find((s) => s.id === named) ?? matchService(named, services)) : services.length === 1 ? services[0] : null;
    if (!found) return { error: `Ask which service the caller wants: ${services.map((s) => s.name).join(", ")}.` };
    return { service: found };
  }

  async function ownAppointment(phone: string | null, appointmentId: string): Promise<AppointmentView | null> {
    if (!phone) return null;
    return (await port.upcoming(phone)).find((a) => a.id === appointmentId) ?? null;
  }

  const handlers: { [K in keyof typeof inputs]: (input: z.infer<(typeof inputs)[K]>) => Promise<ToolCallResult> } = {
    resolve_date: async (input: z.infer<typeof inputs.resolve_date>) => {
      const { timezone, today } = await businessToday(db, organizationId, now());
      const when = whenSaid(input.text, { today, now: now(), timeZone: timezone });
      if (!when) return refuse("No day or time in those words: ask the caller which day and time they would like.");
      if (when.invalid) return ok({ invalid: when.invalid, note: when.invalid === "past" ? "That day has passed: ask the caller for another day." : "That day does not exist: ask the caller for another day. Never guess one." });
      return ok({ timezone, ...when, ...(when.date ? { readBack: formatWhen(when.date, when.time, "en") } : {}) });
    },
    check_availability: async (input: z.infer<typeof inputs.check_availability>) => {
      const found = await serviceOf(input.service);
      if (!found.service) return refuse(found.error!);
      let moving: string | undefined;
      if (input.appointmentId) {
        const mine = await ownAppointment(phoneOf(), input.appointmentId);
        if (!mine) return refuse("No upcoming appointment with that id under the caller's number: call my_appointments.");
        moving = mine.id;
      }
      const { timezone, today } = await businessToday(db, organizationId, now());
      const from = searchFrom(input.date, today);
      const free = await port.findSlots(found.service.id, from, input.days ?? (input.date ? 1 : 7), moving);
      // A time asked for ("around 3"): the free times nearest to it on the first day, not the morning's first eight.
      const slots = input.time ? nearest(free, fromZoned(from, input.time, timezone)) : free;
      return ok({ service: found.service.name, timezone, slots: slotsOut(slots), ...(slots.length ? {} : { note: "Nothing free then: search other days, or offer to take a message." }) });
    },
    my_appointments: async (input: z.infer<typeof inputs.my_appointments>) => {
      const phone = phoneOf(input.phone);
      if (!phone) return refuse("Ask the caller for the phone number the appointment is under.");
      const mine = await port.upcoming(phone);
      return ok({ appointments: mine.map((a) => ({ appointmentId: a.id, readBack: a.readBack })) });
    },
    hold_slot: async (input: z.infer<typeof inputs.hold_slot>) => {
      const phone = phoneOf(input.phone);
      if (!phone) return refuse("Ask the caller for a phone number for the booking.");
      let serviceId: string;
      let customerName: string;
      let rescheduleOf: string | undefined;
      if (input.appointmentId) {
        const mine = await ownAppointment(phone, input.appointmentId);
        if (!mine || !mine.serviceId) return refuse("No upcoming appointment with that id under the caller's number: call my_appointments.");
        serviceId = mine.serviceId;
        customerName = mine.customerName;
        rescheduleOf = mine.id;
      } else {
        if (!input.customerName) return refuse("Ask the caller for their name first.");
        const found = await serviceOf(input.service);
        if (!found.service) return refuse(found.error!);
        serviceId = found.service.id;
        customerName = input.customerName;
      }
      const previous = await loadModelPending(db, organizationId, conversation, now());
      if (previous?.holdId) await port.release(previous.holdId);
      const held = await port.hold({ serviceId, start: input.start, customerName, customerPhone: phone, ...(rescheduleOf ? { rescheduleOf } : {}) });
      if (!held.ok) {
        await savePending(db, organizationId, conversation, null, now());
        return refuse(JSON.stringify({ error: "That time is not free. Offer these instead.", alternatives: slotsOut(held.alternatives) }));
      }
      await savePending(db, organizationId, conversation, { kind: rescheduleOf ? "move" : "book", holdId: held.holdId, readBack: held.readBack, phone }, now());
      askedThisReply.add(held.holdId);
      const question = rescheduleOf ? `Just to confirm, I'll move your appointment to ${held.readBack}. Shall I make the change?` : `Just to confirm, I have a ${held.readBack}. Shall I book it?`;
      return ok(`Held for a few minutes, NOT booked yet. Ask the caller exactly: "${question}" Call confirm_booking only after they say yes.`);
    },
    confirm_booking: async () => {
      const pending = await loadModelPending(db, organizationId, conversation, now());
      if (!pending?.holdId) return refuse("Nothing is held in this conversation: check availability and hold a time first.");
      if (askedThisReply.has(pending.holdId) || !callerSaidYes) {
        return refuse(`Not booked. The caller has not confirmed: ask them "Shall I book ${pending.readBack}?" and wait for their yes.`);
      }
      const result = await port.confirm(pending.holdId);
      await savePending(db, organizationId, conversation, null, now());
      if (!result.ok) return refuse(JSON.stringify({ error: "The hold ran out and someone took that time: it is NOT booked. Apologise and offer these.", alternatives: slotsOut(result.alternatives) }));
      await onWrite?.({ reply: "", state: null, events: [result.moved ? "moved" : "booked"], appointment: result.appointment });
      return { ...ok(`${result.moved ? "Moved" : "Booked"} and saved: ${result.appointment.readBack}. Now tell the caller.`), effect: { kind: "appointment" } };
    },
    release_hold: async () => {
      const pending = await loadModelPending(db, organizationId, conversation, now());
      if (pending?.holdId) await port.release(pending.holdId);
      await savePending(db, organizationId, conversation, null, now());
      return ok(pending?.holdId ? "Released: nothing was booked." : "Nothing was held.");
    },
    cancel_appointment: async (input: z.infer<typeof inputs.cancel_appointment>) => {
      const phone = phoneOf(input.phone);
      if (!phone) return refuse("Ask the caller for the phone number the appointment is under.");
      const pending = await loadModelPending(db, organizationId, conversation, now());
      const answering = pending?.kind === "cancel" && pending.phone === phone && (!input.appointmentId || input.appointmentId === pending.appointmentId) ? pending : null;
      if (answering && !askedThisReply.has(answering.appointmentId!) && callerSaidYes) {
        const mine = await ownAppointment(phone, answering.appointmentId!);
        await savePending(db, organizationId, conversation, null, now());
        if (!mine) return refuse("That appointment is no longer booked.");
        const cancelled = await port.cancel(mine.id);
        await onWrite?.({ reply: "", state: null, events: ["cancelled"], appointment: cancelled });
        return { ...ok(`Cancelled: ${cancelled.readBack}. Now tell the caller.`), effect: { kind: "appointment" } };
      }
      const upcoming = await port.upcoming(phone);
      const target = input.appointmentId ? upcoming.find((a) => a.id === input.appointmentId) : (answering ? upcoming.find((a) => a.id === answering.appointmentId) : null) ?? (upcoming.length === 1 ? upcoming[0] : null);
      if (!target) return refuse(upcoming.length ? "Which one? Call my_appointments and pass its appointmentId." : "No upcoming appointment under the caller's number.");
      if (pending?.holdId) await port.release(pending.holdId);
      await savePending(db, organizationId, conversation, { kind: "cancel", appointmentId: target.id, readBack: target.readBack, phone }, now());
      askedThisReply.add(target.id);
      return ok(`NOT cancelled yet. Ask the caller exactly: "I see your ${target.readBack}. Shall I cancel it?" Call cancel_appointment again only after they say yes.`);
    },
  };

  return toolSet(BOOKING_TOOL_DEFINITIONS, inputs, handlers);
}

/** The channel's own tools (MCP) and the booking tools as one set; the booking tools' names win. */
export function withBookingTools(own: ReplyTools | undefined, booking: ModelBookingTools): ReplyTools {
  if (!own?.definitions.length) return booking;
  return {
    definitions: [...booking.definitions, ...own.definitions.filter((d) => !booking.names.has(d.name))],
    call: (name, input, options) => (booking.names.has(name) ? booking.call(name, input, options) : own.call(name, input, options)),
  };
}
