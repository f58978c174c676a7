import "server-only";
import { and, asc, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { appointments } from "@/db/schema";
import { normalizePhone } from "./schema";
import { clockOf, findSlots, messagingOf, rescheduleAppointment, SlotTakenError, type BookingDeps } from "./service";
import { organizationBooking } from "./settings";
import { describeInstant } from "./time";
import type { AppointmentRow, SlotView } from "./views";

/**
 * Replies to the confirmation and reminder texts, for the SMS webhook (phone loop) to call before
 * the assistant sees a message:
 * - "C" (or "CONFIRM"): the customer confirms their next appointment;
 * - "R" (or "RESCHEDULE"): they get up to three free times near it, numbered;
 * - "1" / "2" / "3" within a day of that offer: the appointment moves there (if still free; else a
 *   fresh offer).
 * Anything else → `{handled: false}`: the conversation goes on with the assistant. The webhook
 * sends `reply` back (e.g. as the TwiML <Message>); it is null for an opted-out number.
 */
export type ReplyOutcome =
  | { handled: false }
  | {
      handled: true;
      action: "confirmed" | "reschedule_offered" | "rescheduled" | "no_alternatives" | "offer_taken";
      appointmentId: string;
      reply: string | null;
    };

const OFFER_TTL_MS = 24 * 3600_000;

function keyword(body: string): string {
  return body.trim().toUpperCase().replace(/[.!\s]+$/g, "");
}

function short(slot: { start: Date | string }, timezone: string): string {
  const t = describeInstant(new Date(slot.start), timezone);
  return `${t.day} ${t.date.replace(/, \d{4}$/, "")} at ${t.time}`;
}

async function nextAppointment(db: DbOrTx, organizationId: string, phone: string, now: Date): Promise<AppointmentRow | undefined> {
  const [row] = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.organizationId, organizationId), eq(appointments.customerPhone, phone), eq(appointments.status, "confirmed"), gt(appointments.startsAt, now)))
    .orderBy(asc(appointments.startsAt))
    .limit(1);
  return row;
}

async function offer(db: DbOrTx, organizationId: string, row: AppointmentRow, now: Date, deps: BookingDeps): Promise<SlotView[]> {
  if (!row.serviceId) return [];
  const from = new Date(Math.max(now.getTime(), row.startsAt.getTime() - 7 * 86_400_000));
  const { slots } = await findSlots(db, organizationId, { serviceId: row.serviceId, from, to: new Date(row.startsAt.getTime() + 14 * 86_400_000) }, deps);
  // The nearest free times to the current one, excluding it.
  const picked = slots
    .filter((s) => s.start !== row.startsAt.toISOString())
    .sort((a, b) => Math.abs(Date.parse(a.start) - row.startsAt.getTime()) - Math.abs(Date.parse(b.start) - row.startsAt.getTime()))
    .slice(0, 3)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  await db
    .update(appointments)
    .set({ rescheduleOffer: picked.map((s) => ({ startsAt: s.start, resourceId: s.resourceIds[0] ?? null })), rescheduleOfferedAt: now })
    .where(and(eq(appointments.id, row.id), eq(appointments.organizationId, organizationId)));
  return picked;
}

function offerText(business: string, service: string, slots: SlotView[], timezone: string, current: AppointmentRow): string {
  const options = slots.map((s, i) => `${i + 1}) ${short(s, timezone)}`).join(", ");
  return `${business}: reply ${slots.map((_, i) => i + 1).join(", ").replace(/, (\d)$/, " or $1")} to move your ${service} to ${options}. Or reply C to keep ${short({ start: current.startsAt }, timezone)}.`;
}

export async function handleAppointmentReply(db: DbOrTx, organizationId: string, from: string, body: string, deps: BookingDeps = {}): Promise<ReplyOutcome> {
  const word = keyword(body);
  const isConfirm = word === "C" || word === "CONFIRM";
  const isReschedule = word === "R" || word === "RESCHEDULE";
  const choice = /^[1-3]$/.test(word) ? Number(word) : null;
  if (!isConfirm && !isReschedule && choice === null) return { handled: false };
  const phone = normalizePhone(from);
  if (!phone) return { handled: false };
  const now = clockOf(deps);
  const row = await nextAppointment(db, organizationId, phone, now);
  if (!row) return { handled: false };
  const org = await organizationBooking(db, organizationId);
  const optedOut = await messagingOf(deps).isOptedOut(db, organizationId, phone);
  const say = (text: string) => (optedOut ? null : text);

  if (isConfirm) {
    await db
      .update(appointments)
      .set({ customerConfirmedAt: now, rescheduleOffer: null })
      .where(and(eq(appointments.id, row.id), eq(appointments.organizationId, organizationId)));
    return {
      handled: true,
      action: "confirmed",
      appointmentId: row.id,
      reply: say(`Thanks, ${row.customerName}! Your ${row.serviceName} on ${short({ start: row.startsAt }, org.timezone)} is confirmed.`),
    };
  }

  if (isReschedule) {
    const slots = await offer(db, organizationId, row, now, deps);
    if (slots.length === 0) {
      return {
        handled: true,
        action: "no_alternatives",
        appointmentId: row.id,
        reply: say(`${org.name}: we have no other free times near your ${row.serviceName} right now. Please call us to find one.`),
      };
    }
    return { handled: true, action: "reschedule_offered", appointmentId: row.id, reply: say(offerText(org.name, row.serviceName, slots, org.timezone, row)) };
  }

  // A number: only as the answer to a recent offer.
  const offered = row.rescheduleOffer ?? [];
  if (!row.rescheduleOfferedAt || now.getTime() - row.rescheduleOfferedAt.getTime() > OFFER_TTL_MS || !offered[choice! - 1]) return { handled: false };
  const pick = offered[choice! - 1];
  try {
    const moved = await rescheduleAppointment(db, organizationId, row.id, { start: new Date(pick.startsAt) }, deps);
    return {
      handled: true,
      action: "rescheduled",
      appointmentId: row.id,
      reply: say(`Done: your ${moved.serviceName} is now on ${short({ start: moved.start }, org.timezone)}. See you then!`),
    };
  } catch (error) {
    if (!(error instanceof SlotTakenError)) throw error;
    const fresh = await offer(db, organizationId, row, now, deps);
    const text = fresh.length
      ? `That time was just taken. ${offerText(org.name, row.serviceName, fresh, org.timezone, row)}`
      : `That time was just taken, and we have no other free times near your ${row.serviceName}. Please call us.`;
    return { handled: true, action: "offer_taken", appointmentId: row.id, reply: say(text) };
  }
}
