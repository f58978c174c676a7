/**
 * The booking conversation, one turn at a time, with no language model and no database of its
 * own: it reads the caller's words (./parse.ts), asks the appointment book through a `BookingPort`
 * (the real one is ./conversation.ts; tests pass a fake), and answers the next line and the next
 * state. The rules the issue sets are here, in one place:
 *  - only times the book returns are offered; a time that is not free is never confirmed — the
 *    nearest free ones are offered instead;
 *  - the chosen time is held, then read back (service, day, date, time, name) with a question;
 *  - only the caller's yes writes the booking, and only after the write answers does the reply say
 *    it is booked (a hold that ran out and was taken → apologise, offer others);
 *  - reschedule and cancel work on the caller's own appointments, found by their number.
 */
import { addDays } from "../time";
import type { AppointmentView, SlotView } from "../views";
import { whenSaid } from "@/lib/agents/conversation/when";
import type { Language, SpokenWhen } from "@/lib/agents/conversation/understanding/types";
import { formatWhen } from "@/lib/agents/conversation/when";
import { bareName, inDayPart, isAbort, matchService, servicesSharing, parseBookingIntent, parseChoice, parseName, parsePhoneDigits, parseSignature, parseYesNo, type BookingIntent, type DayPart } from "./parse";

export type OfferedSlot = { start: string; localDate: string; localTime: string; spoken: string };

export type DialogueState = {
  flow: BookingIntent;
  stage: "service" | "when" | "pick" | "name" | "phone" | "confirm" | "confirm_cancel";
  serviceId?: string;
  serviceName?: string;
  offered?: OfferedSlot[];
  chosen?: OfferedSlot;
  name?: string;
  phone?: string;
  holdId?: string;
  /** The held time as read back ("Haircut with Anna on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe"). */
  readBack?: string;
  appointmentId?: string;
  /** How many times in a row the assistant did not understand (after three, it gives up politely). */
  misses?: number;
  /** Rescheduling: the appointment's local time now ("same time" keeps it). */
  movingTime?: string;
  /** Rescheduling: the appointment's local date now ("push it back to 5" keeps the day). */
  movingDate?: string;
  /** The day and time last read back and turned down ("make it 4 instead" keeps the day, "Tuesday, same time" the time). */
  askedDate?: string;
  askedTime?: string;
  /** The caller's language: a Spanish caller is answered, offered times and read back in Spanish. */
  language?: Language;
  /** The words that named the day while the service was still being asked ("a haircut tomorrow morning"). */
  askedWords?: string;
  /** Days asked about as a span ("end of next week"): a weekday said next is the one inside it. */
  rangeFrom?: string;
  rangeTo?: string;
  /**
   * Set aside while the caller asked something else ("do you take Cigna?"): no hold, not under way;
   * a day or time said next picks it up where it was, anything else starts afresh.
   */
  paused?: boolean;
};

export type DialogueContext = {
  /** The business's local date of the turn ("YYYY-MM-DD"). */
  today: string;
  /** The caller's number (E.164) when the channel knows it (calls, texts); null in a chat. */
  callerPhone: string | null;
  /** The turn's clock and the business's zone: spoken days are read against them (else noon of `today`). */
  now?: Date;
  timeZone?: string;
  /** What caller understanding read in the words ("can I get a cleaning tomorrow?" is a booking), the name they gave, their language and the service it matched. */
  heard?: { intent: BookingIntent | null; name?: string | null; language?: Language; service?: string | null; question?: boolean };
  /** The conversation's language (set by bookingTurn from the state or what was heard). */
  language?: Language;
};

export type HoldOutcome = { ok: true; holdId: string; readBack: string } | { ok: false; alternatives: SlotView[] };
export type ConfirmOutcome = { ok: true; appointment: AppointmentView; moved: boolean } | { ok: false; alternatives: SlotView[] };

/** What the dialogue needs from the appointment book (./conversation.ts binds it to the database). */
export interface BookingPort {
  services(): Promise<{ id: string; name: string }[]>;
  /**
   * Free slots of a service from a local date for `days` days, soonest first. `moving`: the booked
   * appointment being rescheduled, whose own time is free for it (it may move 10:00 → 10:15).
   */
  findSlots(serviceId: string, fromDate: string, days: number, moving?: string): Promise<SlotView[]>;
  hold(input: { serviceId: string; start: string; customerName: string; customerPhone: string; rescheduleOf?: string }): Promise<HoldOutcome>;
  confirm(holdId: string): Promise<ConfirmOutcome>;
  release(holdId: string): Promise<void>;
  /** The caller's booked appointments from now on, soonest first. */
  upcoming(phone: string): Promise<AppointmentView[]>;
  cancel(appointmentId: string): Promise<AppointmentView>;
}

export type DialogueEvent = "offered" | "held" | "booked" | "moved" | "cancelled" | "released" | "taken";

export type DialogueTurn = {
  reply: string;
  /** null: no booking under way any more. */
  state: DialogueState | null;
  events: DialogueEvent[];
  appointment?: AppointmentView;
};

/** Days searched when the caller names no day, or nothing is free on the day they named. */
export const SEARCH_DAYS = 14;

/** The first local day to search: the day asked for, or today when none was asked for or it has passed. */
export function searchFrom(day: string | null | undefined, today: string): string {
  return day && day >= today ? day : today;
}
const OFFER_COUNT = 3;
const MAX_MISSES = 3;

export const DIALOGUE_LINES = {
  whichService: (names: string[]) => `Which service would you like to book? We offer ${listOr(names)}.`,
  noneFree: (service: string) => `I'm sorry, I don't see any free times for ${aOrAn(service)} in the next two weeks. I can take a message for the team instead.`,
  offer: (service: string, slots: OfferedSlot[]) => `The first free times for ${aOrAn(service)} are ${listOr(slots.map((s) => s.spoken))}. Which would suit you?`,
  offerOnDay: (service: string, day: string, slots: OfferedSlot[]) => `On ${day}, I have ${listOr(slots.map((s) => s.spoken.replace(/^.* at /, "")))} free for ${aOrAn(service)}. Which would suit you?`,
  notFree: (asked: string, slots: OfferedSlot[]) => `I'm sorry, ${asked} isn't available. The nearest free times are ${listOr(slots.map((s) => s.spoken))}. Would one of those work?`,
  dayFull: (day: string, slots: OfferedSlot[]) => `I'm sorry, there's nothing free on ${day}. The next free times are ${listOr(slots.map((s) => s.spoken))}. Would one of those work?`,
  askName: (spoken: string) => `${spoken} is free. May I have your name for the booking?`,
  askNameAgain: "Sorry, I didn't catch your name. What name should I put the booking under?",
  askPhone: "And what's the best phone number for the booking?",
  askPhoneAgain: "Sorry, I didn't catch that number. Please say or type the full phone number, with the area code.",
  readBack: (readBack: string) => `Just to confirm, I have ${aOrAn(readBack)}. Shall I book it?`,
  readBackMove: (readBack: string) => `Just to confirm, I'll move your appointment to ${readBack}. Shall I make the change?`,
  askYesNo: (readBack: string) => `Sorry, was that a yes? I have ${aOrAn(readBack)}. Shall I book it? Please say yes or no.`,
  booked: (readBack: string) => `You're booked: ${readBack}. Is there anything else I can help you with?`,
  moved: (readBack: string) => `Done: I've moved it. You now have ${aOrAn(readBack)}. Is there anything else I can help you with?`,
  taken: (slots: OfferedSlot[]) =>
    slots.length
      ? `I'm sorry, that time was taken by someone else a moment ago, so it is not booked. The nearest free times are ${listOr(slots.map((s) => s.spoken))}. Would one of those work?`
      : "I'm sorry, that time was taken by someone else a moment ago, so it is not booked, and I don't see another free time nearby. I can take a message for the team.",
  declined: "No problem, I haven't booked anything. What other day or time would suit you?",
  declinedMove: "No problem, your appointment stays as it was. What other day or time would suit you?",
  whatDay: (service: string) => `What day and time would you like for ${aOrAn(service)}? For example, tomorrow at 10 AM.`,
  whichOffered: (slots: OfferedSlot[]) => `Which of these would you like: ${listOr(slots.map((s) => s.spoken))}? Or tell me another day.`,
  noUpcoming: "I can't find an upcoming appointment under this phone number. Would you like to book one?",
  askWhoseNumber: "What phone number is the appointment under?",
  moveWhen: (readBack: string) => `I see your ${readBack}. What day and time would you like instead?`,
  confirmCancel: (readBack: string) => `I see your ${readBack}. Shall I cancel it?`,
  cancelled: (readBack: string) => `Your ${readBack} is cancelled. Is there anything else I can help you with?`,
  keptIt: "All right, I've kept your appointment as it is. Is there anything else I can help you with?",
  askCancelYesNo: (readBack: string) => `Sorry, was that a yes? Shall I cancel your ${readBack}? Please say yes or no.`,
  aborted: "No problem, I've left everything as it was. Is there anything else I can help you with?",
  givenUp: "I'm sorry, I'm having trouble following. Nothing has been booked. You can call back any time, or I can take a message for the team.",
  nonexistentDay: () => "I'm sorry, that day isn't a date on the calendar, so I haven't booked anything. What day would you like instead?",
  pastDay: "I'm sorry, that day has already passed, so I haven't booked anything. What day would you like instead?",
};

/** The same lines in Spanish (the read-backs name weekday and date: "martes 1 de diciembre a las 3 de la tarde"). */
export const DIALOGUE_LINES_ES: typeof DIALOGUE_LINES = {
  whichService: (names) => `¿Qué servicio quiere reservar? Ofrecemos ${listOr(names, "o")}.`,
  noneFree: (service) => `Lo siento, no veo horarios libres para ${service} en las próximas dos semanas. Puedo tomar un mensaje para el equipo.`,
  offer: (service, slots) => `Los primeros horarios libres para ${service} son ${listOr(slots.map((x) => x.spoken), "o")}. ¿Cuál le conviene?`,
  offerOnDay: (service, day, slots) => `El ${day} tengo libre ${listOr(slots.map((x) => x.spoken.replace(/^.* a la(s?) /, "a la$1 ")), "o")} para ${service}. ¿Cuál le conviene?`,
  notFree: (asked, slots) => `Lo siento, ${asked} no está disponible. Los horarios libres más cercanos son ${listOr(slots.map((x) => x.spoken), "o")}. ¿Le sirve alguno?`,
  dayFull: (day, slots) => `Lo siento, el ${day} no hay nada libre. Los siguientes horarios libres son ${listOr(slots.map((x) => x.spoken), "o")}. ¿Le sirve alguno?`,
  askName: (spoken) => `El ${spoken} está libre. ¿A nombre de quién hago la reserva?`,
  askNameAgain: "Perdone, no entendí su nombre. ¿A nombre de quién hago la reserva?",
  askPhone: "¿Y cuál es el mejor número de teléfono para la reserva?",
  askPhoneAgain: "Perdone, no entendí el número. Dígame o marque el número completo, con el código de área.",
  readBack: (readBack) => `Para confirmar: ${readBack}. ¿Lo reservo?`,
  readBackMove: (readBack) => `Para confirmar, cambio su cita a ${readBack}. ¿Hago el cambio?`,
  askYesNo: (readBack) => `Perdone, ¿eso fue un sí? Tengo ${readBack}. ¿Lo reservo? Diga sí o no, por favor.`,
  booked: (readBack) => `Queda reservado: ${readBack}. ¿Puedo ayudarle con algo más?`,
  moved: (readBack) => `Listo, la he cambiado. Ahora tiene ${readBack}. ¿Puedo ayudarle con algo más?`,
  taken: (slots) =>
    slots.length
      ? `Lo siento, alguien acaba de tomar ese horario, así que no he podido reservarlo. Los horarios libres más cercanos son ${listOr(slots.map((x) => x.spoken), "o")}. ¿Le sirve alguno?`
      : "Lo siento, alguien acaba de tomar ese horario, así que no he podido reservarlo, y no veo otro horario libre cerca. Puedo tomar un mensaje para el equipo.",
  declined: "De acuerdo, no he reservado nada. ¿Qué otro día u hora le conviene?",
  declinedMove: "De acuerdo, su cita queda como estaba. ¿Qué otro día u hora le conviene?",
  whatDay: (service) => `¿Qué día y a qué hora quiere ${service}? Por ejemplo, mañana a las 10 de la mañana.`,
  whichOffered: (slots) => `¿Cuál prefiere: ${listOr(slots.map((x) => x.spoken), "o")}? O dígame otro día.`,
  noUpcoming: "No encuentro ninguna cita próxima con este número de teléfono. ¿Quiere reservar una?",
  askWhoseNumber: "¿A qué número de teléfono está la cita?",
  moveWhen: (readBack) => `Veo su cita: ${readBack}. ¿Qué día y hora prefiere en su lugar?`,
  confirmCancel: (readBack) => `Veo su cita: ${readBack}. ¿La cancelo?`,
  cancelled: (readBack) => `Su cita (${readBack}) está cancelada. ¿Puedo ayudarle con algo más?`,
  keptIt: "De acuerdo, su cita queda como está. ¿Puedo ayudarle con algo más?",
  askCancelYesNo: (readBack) => `Perdone, ¿eso fue un sí? ¿Cancelo su cita (${readBack})? Diga sí o no, por favor.`,
  aborted: "De acuerdo, lo he dejado todo como estaba. ¿Puedo ayudarle con algo más?",
  givenUp: "Lo siento, me cuesta entenderle. No he reservado nada. Puede llamar cuando quiera, o puedo tomar un mensaje para el equipo.",
  nonexistentDay: () => "Lo siento, ese día no existe en el calendario, así que no he reservado nada. ¿Qué día prefiere?",
  pastDay: "Lo siento, ese día ya pasó, así que no he reservado nada. ¿Qué día prefiere?",
};

/** The dialogue's lines in the conversation's language. */
function linesFor(ctx: Pick<DialogueContext, "language">): typeof DIALOGUE_LINES {
  return ctx.language === "es" ? DIALOGUE_LINES_ES : DIALOGUE_LINES;
}

/** A read-back in Spanish from its parts ("Teeth Cleaning el martes 1 de diciembre a las 3 de la tarde, a nombre de Rosa Díaz"). */
function readBackEs(service: string, date: string, time: string, name: string): string {
  return `${service} el ${formatWhen(date, time, "es")}, a nombre de ${name}`;
}

/** The day, time and part of the day the words name (one reading for the whole product: lib/agents/conversation/when.ts). */
function whenOf(
  text: string,
  ctx: DialogueContext,
  state?: DialogueState,
): { day: string | null; time: string | null; part: DayPart | null; invalid?: SpokenWhen["invalid"]; range?: { from: string; to: string }; guessed?: boolean } {
  // "Push it back an hour", "30 minutes earlier": the time under discussion, shifted, the same day.
  const shift = shiftSaid(text);
  const shiftFrom = state?.chosen ?? (state?.askedDate && state.askedTime ? { localDate: state.askedDate, localTime: state.askedTime } : state?.movingDate && state.movingTime ? { localDate: state.movingDate, localTime: state.movingTime } : undefined);
  if (shift !== null && shiftFrom) {
    const [h, m] = shiftFrom.localTime.split(":").map(Number);
    const total = h * 60 + m + shift;
    if (total > 0 && total < 24 * 60) return { day: shiftFrom.localDate, time: `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`, part: null };
  }
  const w = whenSaid(text, { today: ctx.today, ...(ctx.now && ctx.timeZone ? { now: ctx.now, timeZone: ctx.timeZone } : {}), ...(ctx.language ? { language: ctx.language } : {}) });
  // "Make it the following day, same time": the day after the one under discussion.
  const inPlay = state?.chosen ?? (state?.askedDate ? { localDate: state.askedDate, localTime: state.askedTime ?? "" } : state?.movingDate ? { localDate: state.movingDate, localTime: state.movingTime ?? "" } : undefined);
  if (inPlay && DAY_AFTER.test(text) && !WEEKDAY_SAID.test(text)) {
    return { day: addDays(inPlay.localDate, 1), time: w?.time && !w.sameTime ? w.time : inPlay.localTime || null, part: null };
  }
  // "The same time next week": a week after the appointment being moved, not a week from today.
  if (state?.movingDate && state.movingTime && WEEK_LATER.test(text) && (!w || w.sameTime || !WEEKDAY_SAID.test(text))) {
    return { day: addDays(state.movingDate, 7), time: w?.time && !w.sameTime ? w.time : state.movingTime, part: null };
  }
  if (!w) return { day: null, time: null, part: null };
  if (w.invalid) return { day: null, time: null, part: null, invalid: w.invalid };
  // "Friday at 2" after "the end of next week": that week's Friday, not the coming one.
  if (w.date && state?.rangeFrom && w.date < state.rangeFrom && WEEKDAY_SAID.test(text)) {
    let date = w.date;
    while (date < state.rangeFrom) date = addDays(date, 7);
    if (!state.rangeTo || date <= state.rangeTo) w.date = date;
  }
  const reference = state?.chosen?.localTime ?? state?.askedTime ?? state?.movingTime;
  const time = w.time && w.meridiemGuessed && reference ? nearerReading(w.time, reference) : (w.time ?? (w.sameTime ? (state?.movingTime ?? state?.askedTime ?? null) : null));
  // A new hour alone changes the hour of the day under discussion: the one read back, the one being moved, the one offered.
  const offeredDays = new Set((state?.offered ?? []).map((o) => o.localDate));
  const dayInPlay = state?.chosen?.localDate ?? state?.askedDate ?? state?.movingDate ?? (offeredDays.size === 1 ? [...offeredDays][0] : undefined);
  const day = w.date ?? (time && !w.range && dayInPlay ? dayInPlay : null);
  return { day, time, part: (w.partOfDay as DayPart | undefined) ?? null, ...(w.range && !day ? { range: w.range } : {}), ...(w.meridiemGuessed && !reference ? { guessed: true } : {}) };
}

/** "The following day", "the next day", "the day after" (not "the day after tomorrow"). */
const DAY_AFTER = /\b(?:the\s+)?(?:following|next)\s+day\b|\bthe\s+day\s+after\b(?!\s+tomorrow)|\bal\s+d[ií]a\s+siguiente\b|\bel\s+d[ií]a\s+siguiente\b/i;
const WEEKDAY_SAID = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)\b/i;
/** "The same time next week", "a week later", "la semana que viene a la misma hora". */
const WEEK_LATER = /\b(same (?:time|day) next week|next week,? same (?:time|day)|a week later|one week later|(?:same|misma) hora (?:la )?(?:semana (?:que viene|siguiente)|pr[oó]xima semana)|(?:la )?(?:semana (?:que viene|siguiente)|pr[oó]xima semana),? a la misma hora)\b/i;
const SHIFT_AMOUNT: Record<string, number> = { a: 60, an: 60, one: 60, "1": 60, two: 120, "2": 120, three: 180, "3": 180, "half an": 30, "half a": 30 };
/**
 * Minutes a time is moved by ("push it back an hour" +60, "30 minutes earlier" −30, "bring it
 * forward half an hour" −30); null when the words move nothing.
 */
export function shiftSaid(text: string): number | null {
  const t = text.toLowerCase();
  const amount = String.raw`(an?|one|two|three|half an?|\d{1,3})\s+(hours?|minutes?|mins?)`;
  const before = new RegExp(String.raw`\b(back|later|up|forward|earlier|ahead)\s+(?:by\s+)?${amount}\b`).exec(t);
  const after = new RegExp(String.raw`\b${amount}\s+(later|earlier|sooner|back|forward)\b`).exec(t);
  const m = before ? { way: before[1], n: before[2], unit: before[3] } : after ? { way: after[3], n: after[1], unit: after[2] } : null;
  if (!m) return null;
  const minutes = /^h/.test(m.unit) ? (SHIFT_AMOUNT[m.n] ?? Number(m.n) * 60) : Number(m.n) || (SHIFT_AMOUNT[m.n] ?? 0);
  if (!minutes) return null;
  return /^(back|later)$/.test(m.way) ? minutes : -minutes;
}

/** "8 instead" of 7 PM is 8 PM: an hour said without am/pm, read the way nearer the time under discussion. */
function nearerReading(time: string, reference: string): string {
  const [h, m] = time.split(":").map(Number);
  const minutes = (hh: number) => hh * 60 + m;
  const [rh, rm] = reference.split(":").map(Number);
  const ref = rh * 60 + rm;
  const other = h >= 12 ? h - 12 : h + 12;
  const best = Math.abs(minutes(other) - ref) < Math.abs(minutes(h) - ref) ? other : h;
  return `${String(best).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** "08:00" ↔ "20:00": the same hour read the other side of noon. */
function flipMeridiem(time: string): string {
  const [h, m] = time.split(":").map(Number);
  return `${String((h + 12) % 24).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

function askAgainFor(invalid: NonNullable<SpokenWhen["invalid"]>, ctx: DialogueContext): string {
  return invalid === "past" ? linesFor(ctx).pastDay : linesFor(ctx).nonexistentDay();
}

function listOr(items: string[], or = "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${or} ${items[items.length - 1]}`;
}

function aOrAn(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? "an" : "a"} ${phrase}`;
}

/** "Tuesday, March 16 at 10:00 AM": how an offered time is said (the year only in the read-back). */
export function spokenSlot(slot: SlotView, language: Language = "en"): OfferedSlot {
  if (language === "es") return { start: slot.start, localDate: slot.localDate, localTime: slot.localTime, spoken: formatWhen(slot.localDate, slot.localTime, "es") };
  return {
    start: slot.start,
    localDate: slot.localDate,
    localTime: slot.localTime,
    spoken: `${slot.label.day}, ${slot.label.date.replace(/, \d{4}$/, "")} at ${slot.label.time}`,
  };
}

/** "Tuesday, March 16" of a local date, from any slot of that day (or the date itself). */
function spokenDay(date: string, slots: SlotView[], language: Language = "en"): string {
  if (language === "es") return formatWhen(date, undefined, "es");
  const s = slots.find((x) => x.localDate === date);
  if (s) return `${s.label.day}, ${s.label.date.replace(/, \d{4}$/, "")}`;
  const d = new Date(`${date}T12:00:00Z`);
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" }).format(d);
}

function spokenTime(time: string, language: Language = "en"): string {
  if (language === "es") return formatWhen("2000-01-03", time, "es").replace(/^.*? a (las?) /, "$1 ");
  const [h, m] = time.split(":").map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/** Up to three slots spread over the day (at least an hour apart when there are enough). */
function spread(slots: SlotView[], count = OFFER_COUNT): SlotView[] {
  const picked: SlotView[] = [];
  for (const s of slots) {
    if (picked.length === count) break;
    const last = picked[picked.length - 1];
    if (!last || Date.parse(s.start) - Date.parse(last.start) >= 3600_000) picked.push(s);
  }
  for (const s of slots) {
    if (picked.length >= count) break;
    if (!picked.includes(s)) picked.push(s);
  }
  return picked.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** The `count` slots nearest to a local date and time, in time order. */
function nearest(slots: SlotView[], date: string, time: string, count = OFFER_COUNT): SlotView[] {
  const target = Date.parse(`${date}T${time}:00Z`);
  const local = (s: SlotView) => Date.parse(`${s.localDate}T${s.localTime}:00Z`);
  return [...slots]
    .sort((a, b) => Math.abs(local(a) - target) - Math.abs(local(b) - target))
    .slice(0, count)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

type Turn = DialogueTurn;
const done = (reply: string, events: DialogueEvent[] = [], appointment?: AppointmentView): Turn => ({ reply, state: null, events, ...(appointment ? { appointment } : {}) });
const next = (reply: string, state: DialogueState, events: DialogueEvent[] = []): Turn => ({ reply, state, events });

/**
 * One turn. `state` null and words with no booking intent → null: not a booking turn (the
 * assistant answers as usual). Otherwise the reply and the next state.
 */
export async function bookingTurn(state: DialogueState | null, text: string, context: DialogueContext, port: BookingPort): Promise<DialogueTurn | null> {
  // The conversation keeps the language it started in ("sí" or "ok" alone does not switch it).
  const language: Language = state?.language ?? context.language ?? context.heard?.language ?? "en";
  const ctx: DialogueContext = { ...context, language };
  const turn = await turnOf(state, text, ctx, port);
  if (turn?.state && language !== "en") turn.state = { ...turn.state, language };
  return turn;
}

/** A booking set aside for another question: no hold, not under way, kept to be picked up again. */
export function pausedState(state: DialogueState): DialogueState | null {
  if (!state.serviceId || state.stage === "confirm_cancel") return null;
  const rest = withoutHold(state);
  return { ...rest, stage: rest.offered?.length ? "pick" : "when", misses: 0, paused: true };
}

async function turnOf(state: DialogueState | null, text: string, ctx: DialogueContext, port: BookingPort): Promise<DialogueTurn | null> {
  if (state?.paused) {
    // "OK great, 2 PM Thursday then" after the side question: the same booking, at that time.
    const said = whenOf(text, ctx, state);
    const own = parseBookingIntent(text);
    const resumes = (said.day || said.time || said.part || said.range || parseChoice(text, state.offered?.length ?? 0)) && (!own || own === state.flow);
    if (!resumes) return start(text, ctx, port);
    const { paused: _paused, ...resumed } = state;
    void _paused;
    return continueTurn(resumed, text, ctx, port);
  }
  if (!state) return start(text, ctx, port);
  if (isAbort(text)) {
    if (state.holdId) await port.release(state.holdId);
    return done(linesFor(ctx).aborted, state.holdId ? ["released"] : []);
  }
  const turn = await continueTurn(state, text, ctx, port);
  // Not understood three times in a row: stop, never leaving a hold behind.
  if (turn.state && turn.state.misses && turn.state.misses >= MAX_MISSES) {
    if (turn.state.holdId) await port.release(turn.state.holdId);
    return done(linesFor(ctx).givenUp, ["released"]);
  }
  return turn;
}

async function start(text: string, ctx: DialogueContext, port: BookingPort): Promise<DialogueTurn | null> {
  const intent = parseBookingIntent(text) ?? ctx.heard?.intent ?? null;
  if (!intent) return null;
  // "Is there a fee if I cancel my appointment last minute?": a question about a policy, answered as one.
  if (ctx.heard?.question && !ctx.heard.intent) {
    const said = whenOf(text, ctx);
    if (!said.day && !said.time && !said.invalid) return null;
  }
  const services = await port.services();
  if (services.length === 0) return null; // nothing bookable: the assistant answers as it always did
  if (intent === "book") {
    const state: DialogueState = { flow: "book", stage: "service" };
    const name = ctx.heard?.name ?? parseName(text) ?? parseSignature(text);
    if (name) state.name = name;
    const heardService = ctx.heard?.service ? services.find((x) => x.name.toLowerCase() === ctx.heard!.service!.toLowerCase()) : undefined;
    const service = matchService(text, services) ?? heardService ?? (services.length === 1 ? services[0] : null);
    if (!service) {
      // "Anything for a haircut tomorrow morning?": which of the haircuts — and the times that day, asked for.
      const sharing = servicesSharing(text, services);
      const said = whenOf(text, ctx);
      if (sharing.length >= 2 && said.day && !said.time) {
        const free = new Map<string, SlotView>();
        for (const candidate of sharing) {
          for (const x of await port.findSlots(candidate.id, said.day, 1)) if (!said.part || inDayPart(x.localTime, said.part)) free.set(x.localTime, x);
        }
        const times = spread([...free.values()].sort((a, b) => a.localTime.localeCompare(b.localTime)));
        const names = sharing.map((x) => x.name);
        const line = times.length
          ? ctx.language === "es"
            ? `¿Sería ${listOr(names, "o")}? El ${spokenDay(said.day, times, ctx.language)} tengo libre ${listOr(times.map((x) => spokenTime(x.localTime, ctx.language)), "o")}.`
            : `Would that be ${listOr(names.map(aOrAn))}? On ${spokenDay(said.day, times, ctx.language)} I have ${listOr(times.map((x) => spokenTime(x.localTime, ctx.language)))} free.`
          : linesFor(ctx).whichService(names);
        return next(line, { ...state, askedWords: text });
      }
      return next(linesFor(ctx).whichService(services.map((s) => s.name)), state);
    }
    state.serviceId = service.id;
    state.serviceName = service.name;
    return findWhen(state, text, ctx, port, { openEnded: true });
  }
  const state: DialogueState = { flow: intent, stage: "phone" };
  if (!ctx.callerPhone) {
    const digits = parsePhoneDigits(text);
    if (!digits) return next(linesFor(ctx).askWhoseNumber, state);
    state.phone = digits;
  }
  return findOwnAppointment(state, text, ctx, port);
}

function phoneOf(state: DialogueState, ctx: DialogueContext): string | null {
  return ctx.callerPhone ?? state.phone ?? null;
}

/** Reschedule / cancel: the caller's appointment (the one they name by service or day, else the soonest). */
async function findOwnAppointment(state: DialogueState, text: string, ctx: DialogueContext, port: BookingPort): Promise<Turn> {
  const phone = phoneOf(state, ctx);
  const mine = phone ? await port.upcoming(phone) : [];
  if (mine.length === 0) return done(linesFor(ctx).noUpcoming);
  const byService = matchService(text, mine.map((a) => ({ ...a, name: a.serviceName })));
  const said = whenOf(text, ctx);
  const day = said.day;
  const appointment = (state.flow === "cancel" && day ? mine.find((a) => a.localDate === day) : undefined) ?? byService ?? mine[0];
  const s: DialogueState = { ...state, appointmentId: appointment.id, serviceId: appointment.serviceId ?? undefined, serviceName: appointment.serviceName, name: appointment.customerName, movingTime: appointment.localTime, movingDate: appointment.localDate, misses: 0 };
  if (state.flow === "cancel") return next(linesFor(ctx).confirmCancel(readBackOfAppointment(appointment, ctx)), { ...s, stage: "confirm_cancel" });
  if (!appointment.serviceId) return done(linesFor(ctx).noUpcoming);
  if (said.invalid || whenOf(text, ctx, s).day || whenOf(text, ctx, s).time || said.part) return findWhen({ ...s, stage: "when" }, text, ctx, port, { openEnded: false, intro: ctx.language === "es" ? `Veo su cita: ${readBackOfAppointment(appointment, ctx)}. ` : `I see your ${appointment.readBack}. ` });
  return next(linesFor(ctx).moveWhen(readBackOfAppointment(appointment, ctx)), { ...s, stage: "when" });
}

/**
 * The caller said (or did not say) when: look up real free slots and either take the exact time
 * asked for, or offer the nearest free ones. With no day and no time, `openEnded` offers the first
 * free times; otherwise the caller is asked for a day.
 */
async function findWhen(state: DialogueState, text: string, ctx: DialogueContext, port: BookingPort, opts: { openEnded: boolean; intro?: string }): Promise<Turn> {
  const said = whenOf(text, ctx, state);
  if (said.invalid) return next(`${opts.intro ?? ""}${askAgainFor(said.invalid, ctx)}`, { ...state, stage: "when", offered: undefined, misses: 0 });
  const { day, time, part, range } = said;
  const wantsSoonest = /\b(soonest|earliest|first (available|free|opening)|next (available|free|opening)|asap|as soon as)\b/i.test(text);
  // "First thing Monday", "as early as you can on Friday": the day's first free time, offered alone.
  const wantsFirst = /\b(first thing|earliest|as early as)\b/i.test(text);
  const serviceId = state.serviceId!;
  const service = state.serviceName!;
  const intro = opts.intro ?? "";
  if (!day && !time && !part && !wantsSoonest && !opts.openEnded && !range) {
    return next(`${intro}${linesFor(ctx).whatDay(service)}`, { ...state, stage: "when", misses: (state.misses ?? 0) + (intro ? 0 : 1) });
  }

  const from = searchFrom(day, ctx.today);
  const moving = state.flow === "reschedule" ? state.appointmentId : undefined;
  const onDay = day ? await port.findSlots(serviceId, day, 1, moving) : null;
  const fitting = (slots: SlotView[]) => (part ? slots.filter((s) => inDayPart(s.localTime, part as DayPart)) : slots);

  if (day && time) {
    const exact = onDay!.find((s) => s.localTime === time);
    if (exact) return choose(state, spokenSlot(exact, ctx.language), ctx, port, intro);
    // "The 23rd at 8" at a dinner-only restaurant: 8 PM — the other reading of an hour said without
    // am/pm, when that one is free and the first is not.
    const other = said.guessed ? flipMeridiem(time) : null;
    const flipped = other ? onDay!.find((s) => s.localTime === other) : undefined;
    if (flipped) return choose(state, spokenSlot(flipped, ctx.language), ctx, port, intro);
    const around = onDay!.length ? onDay! : await port.findSlots(serviceId, from, SEARCH_DAYS, moving);
    if (!around.length) return done(`${intro}${linesFor(ctx).noneFree(service)}`);
    const offered = nearest(around, day, time).map((x) => spokenSlot(x, ctx.language));
    return next(`${intro}${linesFor(ctx).notFree(ctx.language === "es" ? `el ${spokenDay(day, around, ctx.language)} ${spokenTime(time, ctx.language)}` : `${spokenTime(time, ctx.language)} on ${spokenDay(day, around, ctx.language)}`, offered)}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
  }
  if (day) {
    const free = fitting(onDay!);
    if (free.length) {
      const offered = (wantsFirst ? free.slice(0, 1) : spread(free)).map((x) => spokenSlot(x, ctx.language));
      return next(`${intro}${linesFor(ctx).offerOnDay(service, spokenDay(day, free, ctx.language), offered)}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
    }
    const later = fitting(await port.findSlots(serviceId, day, SEARCH_DAYS, moving)).filter((s) => s.localDate !== day);
    if (!later.length) return done(`${intro}${linesFor(ctx).noneFree(service)}`);
    const offered = spread(later).map((x) => spokenSlot(x, ctx.language));
    return next(`${intro}${linesFor(ctx).dayFull(spokenDay(day, [], ctx.language), offered)}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
  }
  if (range && !time) {
    // "Sometime at the end of next week": times inside the span (the caller's next weekday is read in it).
    const start = searchFrom(range.from, ctx.today);
    const days = Math.max(1, Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1);
    const inside = fitting(await port.findSlots(serviceId, start, days, moving)).filter((x) => x.localDate <= range.to);
    if (inside.length) {
      const firstDays = [...new Set(inside.map((x) => x.localDate))].slice(0, OFFER_COUNT);
      const offered = (firstDays.length > 1 ? firstDays.map((d) => inside.find((x) => x.localDate === d)!) : spread(inside)).map((x) => spokenSlot(x, ctx.language));
      return next(`${intro}${linesFor(ctx).offer(service, offered)}`, { ...state, stage: "pick", offered, misses: 0, rangeFrom: range.from, rangeTo: range.to }, ["offered"]);
    }
  }
  const all = await port.findSlots(serviceId, from, SEARCH_DAYS, moving);
  if (time) {
    // A time with no day: the first day it is free, else the nearest free times to it on the first days.
    const exact = all.find((s) => s.localTime === time);
    if (exact) {
      const offered = [spokenSlot(exact, ctx.language)];
      const line = ctx.language === "es" ? `El primer día con ${spokenTime(time, ctx.language)} libre es el ${offered[0].spoken}. ¿Lo tomo?` : `The first day ${spokenTime(time, ctx.language)} is free is ${offered[0].spoken.replace(/ at .*$/, "")}. Shall I take ${offered[0].spoken}?`;
      return next(`${intro}${line}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
    }
    if (!all.length) return done(`${intro}${linesFor(ctx).noneFree(service)}`);
    const offered = nearest(all, all[0].localDate, time).map((x) => spokenSlot(x, ctx.language));
    return next(`${intro}${linesFor(ctx).notFree(spokenTime(time, ctx.language), offered)}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
  }
  const free = fitting(all);
  if (!free.length) return done(`${intro}${linesFor(ctx).noneFree(service)}`);
  const offered = spread(free.filter((s) => s.localDate === free[0].localDate).length >= OFFER_COUNT ? free.filter((s) => s.localDate === free[0].localDate) : free).map((x) => spokenSlot(x, ctx.language));
  return next(`${intro}${linesFor(ctx).offer(service, offered)}`, { ...state, stage: "pick", offered, misses: 0 }, ["offered"]);
}

/** A free time is chosen: ask for what is missing (name, number), then hold it and read it back. */
async function choose(state: DialogueState, slot: OfferedSlot, ctx: DialogueContext, port: BookingPort, intro = ""): Promise<Turn> {
  const s: DialogueState = { ...state, chosen: slot, misses: 0 };
  if (!s.name) return next(`${intro}${linesFor(ctx).askName(slot.spoken)}`, { ...s, stage: "name" });
  if (!phoneOf(s, ctx)) return next(`${intro}${linesFor(ctx).askPhone}`, { ...s, stage: "phone" });
  return holdAndReadBack(s, ctx, port, intro);
}

async function holdAndReadBack(state: DialogueState, ctx: DialogueContext, port: BookingPort, intro = ""): Promise<Turn> {
  const held = await port.hold({
    serviceId: state.serviceId!,
    start: state.chosen!.start,
    customerName: state.name!,
    customerPhone: phoneOf(state, ctx)!,
    ...(state.flow === "reschedule" && state.appointmentId ? { rescheduleOf: state.appointmentId } : {}),
  });
  if (!held.ok) return offerInstead(state, held.alternatives, "taken", ctx, intro);
  const readBack = ctx.language === "es" ? readBackEs(state.serviceName ?? "", state.chosen!.localDate, state.chosen!.localTime, state.name!) : held.readBack;
  const line = state.flow === "reschedule" ? linesFor(ctx).readBackMove(readBack) : linesFor(ctx).readBack(readBack);
  return next(`${intro}${line}`, { ...state, stage: "confirm", holdId: held.holdId, misses: 0, readBack }, ["held"]);
}

function offerInstead(state: DialogueState, alternatives: SlotView[], event: DialogueEvent, ctx: DialogueContext, intro = ""): Turn {
  const offered = alternatives.slice(0, OFFER_COUNT).map((x) => spokenSlot(x, ctx.language));
  const rest = withoutHold(state);
  if (!offered.length) return done(`${intro}${linesFor(ctx).taken([])}`, [event]);
  return next(`${intro}${linesFor(ctx).taken(offered)}`, { ...rest, stage: "pick", offered, misses: 0 }, [event, "offered"]);
}

function withoutHold(state: DialogueState): DialogueState {
  const rest = { ...state };
  if (state.chosen) {
    rest.askedDate = state.chosen.localDate;
    rest.askedTime = state.chosen.localTime;
  }
  delete rest.holdId;
  delete rest.chosen;
  delete rest.readBack;
  return rest;
}

/** An appointment as read back, in the conversation's language (weekday and date either way). */
function readBackOfAppointment(a: AppointmentView, ctx: DialogueContext): string {
  return ctx.language === "es" ? readBackEs(a.serviceName, a.localDate, a.localTime, a.customerName) : a.readBack;
}

const readBackOf = (state: DialogueState) => state.readBack ?? state.chosen?.spoken ?? "";

async function continueTurn(state: DialogueState, text: string, ctx: DialogueContext, port: BookingPort): Promise<Turn> {
  // "Whoever's free then, Thursday at 2, my name is Ellen Ward" while times are offered: the name said with it is kept.
  if (!state.name && ctx.heard?.name && (state.stage === "service" || state.stage === "when" || state.stage === "pick")) state = { ...state, name: ctx.heard.name };
  const missed = (line: string): Turn => next(line, { ...state, misses: (state.misses ?? 0) + 1 });
  switch (state.stage) {
    case "service": {
      const services = await port.services();
      const heardService = ctx.heard?.service ? services.find((x) => x.name.toLowerCase() === ctx.heard!.service!.toLowerCase()) : undefined;
      const service = matchService(text, services) ?? heardService;
      if (!service) return missed(linesFor(ctx).whichService(services.map((s) => s.name)));
      // "Women's" after "a haircut tomorrow morning?": the day asked for first still holds.
      const saidNow = whenOf(text, ctx, state);
      const words = saidNow.day || saidNow.time || saidNow.part || saidNow.range || !state.askedWords ? text : `${state.askedWords} ${text}`;
      const { askedWords: _asked, ...rest } = state;
      void _asked;
      return findWhen({ ...rest, serviceId: service.id, serviceName: service.name, misses: 0 }, words, ctx, port, { openEnded: true });
    }
    case "when":
      return findWhen(state, text, ctx, port, { openEnded: false });
    case "pick": {
      const offered = state.offered ?? [];
      const choice = parseChoice(text, offered.length);
      if (choice) return choose(state, offered[choice - 1], ctx, port);
      const said = whenOf(text, ctx, state);
      if (said.invalid) return next(askAgainFor(said.invalid, ctx), { ...state, stage: "when", offered: undefined, misses: 0 });
      const { day, time } = said;
      if (time && !day) {
        const match = offered.filter((o) => o.localTime === time);
        if (match.length >= 1) return choose(state, match[0], ctx, port);
      }
      if (day && !time) {
        const match = offered.filter((o) => o.localDate === day);
        if (match.length === 1) return choose(state, match[0], ctx, port);
      }
      if (day && time) {
        const match = offered.find((o) => o.localDate === day && o.localTime === time);
        if (match) return choose(state, match, ctx, port);
      }
      if (day || time || said.part) return findWhen(state, text, ctx, port, { openEnded: false });
      // "2 works", "the 11 one": a bare hour that is one of the times offered.
      const bare = text.match(/(?:^|\s)(\d{1,2})(?::(\d{2}))?(?=\s|$|[.,!?])/);
      if (bare) {
        const hour = Number(bare[1]) % 12;
        const minute = Number(bare[2] ?? 0);
        const match = offered.filter((o) => Number(o.localTime.slice(0, 2)) % 12 === hour && Number(o.localTime.slice(3, 5)) === minute);
        if (match.length === 1) return choose(state, match[0], ctx, port);
      }
      const yesNo = parseYesNo(text);
      if (yesNo === "yes" && offered.length === 1) return choose(state, offered[0], ctx, port);
      // "Vera Lind" after "Shall I take Tuesday at 2?": the one time offered is taken, under that name.
      const named = offered.length === 1 && !yesNo ? bareName(text) : null;
      if (named) return choose({ ...state, name: named }, offered[0], ctx, port);
      if (/\b(soonest|earliest|first (available|free|one))\b/i.test(text) && offered.length) return choose(state, offered[0], ctx, port);
      if (yesNo === "no") return next(linesFor(ctx).whatDay(state.serviceName!), { ...state, stage: "when", offered: undefined, misses: 0 });
      return missed(linesFor(ctx).whichOffered(offered));
    }
    case "name": {
      // "Actually, can we do 8 instead?": a new day or time before the name; the name is asked for again after.
      const changed = whenOf(text, ctx, state);
      if ((changed.invalid || changed.day || changed.time || changed.part) && !parseName(text)) {
        const rest = withoutHold(state);
        return findWhen({ ...rest, stage: "when", misses: 0 }, text, ctx, port, { openEnded: false });
      }
      // "Great, book it please, Kim Lee": a name understanding found in the words counts too.
      const name = parseName(text, { alone: true }) ?? ctx.heard?.name ?? null;
      if (!name) return missed(linesFor(ctx).askNameAgain);
      const s = { ...state, name, misses: 0 };
      if (!phoneOf(s, ctx)) return next(linesFor(ctx).askPhone, { ...s, stage: "phone" });
      return holdAndReadBack(s, ctx, port);
    }
    case "phone": {
      const phone = parsePhoneDigits(text);
      if (!phone) return missed(state.chosen ? linesFor(ctx).askPhoneAgain : linesFor(ctx).askWhoseNumber);
      const s = { ...state, phone, misses: 0 };
      if (state.chosen) return holdAndReadBack(s, ctx, port);
      return findOwnAppointment(s, text, ctx, port);
    }
    case "confirm": {
      const yesNo = parseYesNo(text);
      const said = whenOf(text, ctx, state);
      const changes = Boolean(said.invalid || said.day || said.time || said.part);
      if (yesNo === "yes" && !changes) {
        const confirmed = await port.confirm(state.holdId!);
        if (!confirmed.ok) return offerInstead(state, confirmed.alternatives, "taken", ctx);
        const a = confirmed.appointment;
        if (confirmed.moved) return done(linesFor(ctx).moved(readBackOfAppointment(a, ctx)), ["moved"], a);
        return done(linesFor(ctx).booked(readBackOfAppointment(a, ctx)), ["booked"], a);
      }
      // "Karen Holt" in answer to "…for Been Swollen. Shall I book it?": the name put right, read back again.
      const renamed = !yesNo && !changes ? bareName(text) : null;
      if (renamed && renamed !== state.name && state.chosen) {
        if (state.holdId) await port.release(state.holdId);
        const { holdId: _hold, readBack: _readBack, ...rest } = state;
        void _hold;
        void _readBack;
        return holdAndReadBack({ ...rest, name: renamed, misses: 0 }, ctx, port);
      }
      if (yesNo === "no" || changes) {
        if (state.holdId) await port.release(state.holdId);
        const rest = withoutHold(state);
        const s: DialogueState = { ...rest, stage: "when", misses: 0 };
        if (changes) {
          const turn = await findWhen(s, text, ctx, port, { openEnded: false });
          return { ...turn, events: ["released", ...turn.events] };
        }
        return next(state.flow === "reschedule" ? linesFor(ctx).declinedMove : linesFor(ctx).declined, s, ["released"]);
      }
      return missed(linesFor(ctx).askYesNo(readBackOf(state)));
    }
    case "confirm_cancel": {
      const yesNo = parseYesNo(text);
      if (yesNo === "yes") {
        const cancelled = await port.cancel(state.appointmentId!);
        return done(linesFor(ctx).cancelled(readBackOfAppointment(cancelled, ctx)), ["cancelled"], cancelled);
      }
      if (yesNo === "no") return done(linesFor(ctx).keptIt);
      const mine = await port.upcoming(phoneOf(state, ctx) ?? "");
      const a = mine.find((x) => x.id === state.appointmentId);
      return missed(linesFor(ctx).askCancelYesNo(a ? readBackOfAppointment(a, ctx) : ctx.language === "es" ? "su cita" : "appointment"));
    }
  }
}
