import type { AppointmentView, SlotView } from "../views";
import { bookingTurn, pausedState, shiftSaid, type BookingPort, type DialogueContext, type DialogueState } from "./dialogue";
import { bareName, isAbort, matchService, parseBookingIntent, parseChoice, parseDay, parseName, parseSignature, parseTime, parseYesNo } from "./parse";

// Monday, March 15, 2027 (the business's local date in these tests).
const TODAY = "2027-03-15";

describe("parseDay", () => {
  it.each([
    ["today please", "2027-03-15"],
    ["tomorrow at 10", "2027-03-16"],
    ["the day after tomorrow", "2027-03-17"],
    ["on Tuesday", "2027-03-16"],
    ["next monday", "2027-03-22"],
    ["Monday", "2027-03-22"],
    ["March 18th", "2027-03-18"],
    ["the 18th of March", "2027-03-18"],
    ["march eighteenth", "2027-03-18"],
    ["3/18", "2027-03-18"],
    ["2027-04-02", "2027-04-02"],
    ["March 1", "2028-03-01"],
    ["February 30", null],
    ["I'd like a haircut", null],
    ["it's sunny", null],
  ])("%s → %s", (text, day) => expect(parseDay(text, TODAY)).toBe(day));
});

describe("parseTime", () => {
  it.each([
    ["at 10", "10:00"],
    ["10am", "10:00"],
    ["10:30 a.m.", "10:30"],
    ["2.30 pm", "14:30"],
    ["at 3", "15:00"],
    ["three o'clock", "15:00"],
    ["at noon", "12:00"],
    ["half past two", "14:30"],
    ["quarter to 10 in the morning", "09:45"],
    ["7 in the evening", "19:00"],
    ["tomorrow at 9 in the morning", "09:00"],
    ["March 18th", null],
    ["for 2 people", null],
    ["tomorrow at 11 then", "11:00"],
    ["in 2 weeks", null],
    ["a haircut on Tuesday", null],
  ])("%s → %s", (text, time) => expect(parseTime(text)).toBe(time));
});

describe("yes, no, names, choices, intents", () => {
  it("reads yes and no", () => {
    expect(parseYesNo("Yes please")).toBe("yes");
    expect(parseYesNo("yeah that's right")).toBe("yes");
    expect(parseYesNo("Sounds good.")).toBe("yes");
    expect(parseYesNo("No, that's wrong")).toBe("no");
    expect(parseYesNo("nope")).toBe("no");
    expect(parseYesNo("what's the price")).toBeNull();
  });
  it("reads names", () => {
    expect(parseName("My name is jane doe")).toBe("Jane Doe");
    expect(parseName("It's Sam.")).toBe("Sam");
    expect(parseName("Jane Doe.", { alone: true })).toBe("Jane Doe");
    expect(parseName("yes", { alone: true })).toBeNull();
    expect(parseName("I would like to book a haircut for tomorrow please", { alone: true })).toBeNull();
    expect(parseName("hello there")).toBeNull();
  });
  it("reads choices among offered times", () => {
    expect(parseChoice("the second one", 3)).toBe(2);
    expect(parseChoice("2", 3)).toBe(2);
    expect(parseChoice("option 3", 3)).toBe(3);
    expect(parseChoice("the last one", 3)).toBe(3);
    expect(parseChoice("the fifth", 3)).toBeNull();
    expect(parseChoice("March first", 3)).toBeNull();
    // Spanish: "la primera que tenga", "el segundo", "la última"; "mi primera vez" picks nothing.
    expect(parseChoice("la primera que tenga está bien", 3)).toBe(1);
    expect(parseChoice("mejor el segundo", 3)).toBe(2);
    expect(parseChoice("la última, por favor", 3)).toBe(3);
    expect(parseChoice("la quinta", 3)).toBeNull();
    expect(parseChoice("es la primera vez que voy", 3)).toBeNull();
  });
  it("reads what the caller wants", () => {
    expect(parseBookingIntent("I'd like to book a haircut")).toBe("book");
    expect(parseBookingIntent("Can I make an appointment?")).toBe("book");
    expect(parseBookingIntent("I need to reschedule")).toBe("reschedule");
    expect(parseBookingIntent("can I move my appointment")).toBe("reschedule");
    expect(parseBookingIntent("Please cancel my appointment")).toBe("cancel");
    expect(parseBookingIntent("What are your hours?")).toBeNull();
    expect(parseBookingIntent("What are your opening hours?")).toBeNull();
    expect(parseBookingIntent("What are your opening times?")).toBeNull();
    expect(parseBookingIntent("Do you have an opening on Friday?")).toBe("book");
    expect(parseBookingIntent("Any openings tomorrow?")).toBe("book");
    expect(isAbort("never mind")).toBe(true);
  });
  it("matches services by name, spacing and plural aside", () => {
    const services = [{ name: "Haircut" }, { name: "Hair colour" }, { name: "Beard trim" }];
    expect(matchService("a hair cut please", services)?.name).toBe("Haircut");
    expect(matchService("haircuts", services)?.name).toBe("Haircut");
    expect(matchService("my beard", services)?.name).toBe("Beard trim");
    expect(matchService("some colour", services)?.name).toBe("Hair colour");
    expect(matchService("a massage", services)).toBeNull();
  });
});

// ─── The dialogue over a fake appointment book ──────────────────────────────────────────────────

const DAYS: Record<string, string> = { "2027-03-15": "Monday", "2027-03-16": "Tuesday", "2027-03-17": "Wednesday", "2027-03-18": "Thursday", "2027-03-19": "Friday", "2027-03-24": "Wednesday", "2027-03-25": "Thursday", "2027-03-26": "Friday" };

function slot(date: string, time: string): SlotView {
  const [h, m] = time.split(":").map(Number);
  const start = new Date(`${date}T${time}:00-04:00`);
  const month = "March";
  return {
    start: start.toISOString(),
    end: new Date(start.getTime() + 3600_000).toISOString(),
    resourceIds: [null],
    localDate: date,
    localTime: time,
    label: { day: DAYS[date], date: `${month} ${Number(date.slice(8))}, 2027`, time: `${h % 12 || 12}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`, zone: "EDT" },
  };
}

function fakeBook(free: SlotView[]) {
  const book: { holds: Map<string, { start: string; name: string; phone: string; rescheduleOf?: string }>; booked: AppointmentView[]; cancelled: string[]; released: string[]; takenBySomeoneElse: Set<string> } = {
    holds: new Map(),
    booked: [],
    cancelled: [],
    released: [],
    takenBySomeoneElse: new Set(),
  };
  const readBack = (start: string, name: string) => {
    const s = free.find((x) => x.start === start)!;
    return `Haircut on ${s.label.day}, ${s.label.date} at ${s.label.time} for ${name}`;
  };
  const view = (id: string, start: string, name: string, phone: string): AppointmentView =>
    ({ id, serviceId: "svc-1", serviceName: "Haircut", start, localDate: free.find((x) => x.start === start)!.localDate, localTime: free.find((x) => x.start === start)!.localTime, customerName: name, customerPhone: phone, readBack: readBack(start, name), status: "confirmed" }) as AppointmentView;
  const port: BookingPort = {
    services: async () => [{ id: "svc-1", name: "Haircut" }, { id: "svc-2", name: "Beard trim" }],
    findSlots: async (_serviceId, fromDate, days) => {
      const to = new Date(Date.parse(`${fromDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
      return free.filter((s) => s.localDate >= fromDate && s.localDate < to && !book.takenBySomeoneElse.has(s.start));
    },
    hold: async ({ start, customerName, customerPhone, rescheduleOf }) => {
      if (book.takenBySomeoneElse.has(start)) return { ok: false, alternatives: free.filter((s) => s.start !== start).slice(0, 3) };
      const id = `hold-${book.holds.size + 1}`;
      book.holds.set(id, { start, name: customerName, phone: customerPhone, rescheduleOf });
      return { ok: true, holdId: id, readBack: readBack(start, customerName) };
    },
    confirm: async (holdId) => {
      const h = book.holds.get(holdId)!;
      if (book.takenBySomeoneElse.has(h.start)) return { ok: false, alternatives: free.filter((s) => s.start !== h.start).slice(0, 3) };
      const a = view(h.rescheduleOf ?? `appt-${book.booked.length + 1}`, h.start, h.name, h.phone);
      book.booked = [...book.booked.filter((x) => x.id !== a.id), a];
      return { ok: true, appointment: a, moved: Boolean(h.rescheduleOf) };
    },
    release: async (holdId) => {
      book.released.push(holdId);
    },
    upcoming: async (phone) => book.booked.filter((a) => a.customerPhone === phone && !book.cancelled.includes(a.id)),
    cancel: async (id) => {
      book.cancelled.push(id);
      return book.booked.find((a) => a.id === id)!;
    },
  };
  return { port, book };
}

const FREE = [slot("2027-03-16", "09:00"), slot("2027-03-16", "10:00"), slot("2027-03-16", "11:00"), slot("2027-03-16", "14:00"), slot("2027-03-17", "10:00")];
const caller: DialogueContext = { today: TODAY, callerPhone: "+14155550100" };

async function converse(lines: string[], port: BookingPort, ctx = caller, initial: DialogueState | null = null) {
  let state = initial;
  const replies: string[] = [];
  const events: string[][] = [];
  for (const line of lines) {
    const turn = await bookingTurn(state, line, ctx, port);
    if (!turn) {
      replies.push("(not a booking turn)");
      events.push([]);
      continue;
    }
    replies.push(turn.reply);
    events.push(turn.events);
    state = turn.state;
  }
  return { replies, events, state };
}

describe("bookingTurn", () => {
  it("is not a booking turn when nothing is about booking", async () => {
    const { port } = fakeBook(FREE);
    expect(await bookingTurn(null, "What are your hours?", caller, port)).toBeNull();
  });

  it("books a free time: holds it, reads back service, day, date, time and name, and says booked only after yes", async () => {
    const { port, book } = fakeBook(FREE);
    const first = await converse(["I'd like to book a haircut on Tuesday at 10", "Jane Doe"], port);
    expect(book.booked).toHaveLength(0); // nothing written before the yes
    const last = await converse(["yes please"], port, caller, first.state);
    const replies = [...first.replies, ...last.replies];
    const events = [...first.events, ...last.events];
    expect(replies[0]).toBe("Tuesday, March 16 at 10:00 AM is free. May I have your name for the booking?");
    expect(replies[1]).toBe("Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe. Shall I book it?");
    expect(replies[1]).not.toMatch(/booked/i);
    expect(events[1]).toEqual(["held"]);
    expect(replies[2]).toBe("You're booked: Haircut on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe. Is there anything else I can help you with?");
    expect(book.booked.map((a) => a.start)).toEqual([FREE[1].start]);
  });

  it("offers only free times: a time that is not free gets the nearest free ones, none invented", async () => {
    const { port, book } = fakeBook(FREE);
    const { replies, state } = await converse(["Can I book a haircut on Tuesday at 7 pm?"], port);
    expect(replies[0]).toBe("I'm sorry, 7:00 PM on Tuesday, March 16 isn't available. The nearest free times are Tuesday, March 16 at 10:00 AM, Tuesday, March 16 at 11:00 AM or Tuesday, March 16 at 2:00 PM. Would one of those work?");
    expect(state?.offered?.map((o) => o.start)).toEqual([FREE[1].start, FREE[2].start, FREE[3].start]);
    expect(book.holds.size).toBe(0);
  });

  it("offers the next free day when the asked day is full, and takes a choice among the offers", async () => {
    const { port } = fakeBook(FREE);
    const { replies } = await converse(["book a haircut on Thursday", "the first one", "My name is Sam Lee", "yes"], port);
    expect(replies[0]).toBe("I'm sorry, I don't see any free times for a Haircut in the next two weeks. I can take a message for the team instead.");
    const { replies: r2 } = await converse(["book a haircut today", "the first one"], port);
    expect(r2[0]).toMatch(/^I'm sorry, there's nothing free on Monday, March 15\. The next free times are Tuesday, March 16 at 9:00 AM, Tuesday, March 16 at 10:00 AM or Tuesday, March 16 at 11:00 AM/);
    expect(r2[1]).toBe("Tuesday, March 16 at 9:00 AM is free. May I have your name for the booking?");
  });

  it("asks which service when the words name none", async () => {
    const { port } = fakeBook(FREE);
    const { replies } = await converse(["I want to make an appointment", "a beard trim"], port);
    expect(replies[0]).toBe("Which service would you like to book? We offer Haircut or Beard trim.");
    expect(replies[1]).toMatch(/^The first free times for a Beard trim are Tuesday, March 16 at 9:00 AM, Tuesday, March 16 at 10:00 AM or Tuesday, March 16 at 11:00 AM/);
  });

  it("on no, releases the hold and books nothing", async () => {
    const { port, book } = fakeBook(FREE);
    const { replies, events } = await converse(["book a haircut tomorrow at 9, my name is Ann Lee", "no"], port);
    expect(replies[0]).toMatch(/^Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 9:00 AM for Ann Lee/);
    expect(replies[1]).toBe("No problem, I haven't booked anything. What other day or time would suit you?");
    expect(events[1]).toEqual(["released"]);
    expect(book.released).toEqual(["hold-1"]);
    expect(book.booked).toHaveLength(0);
  });

  it("when the held time was taken before the yes, says it is not booked and offers others", async () => {
    const { port, book } = fakeBook(FREE);
    let { state } = await converse(["book a haircut tomorrow at 9, my name is Ann Lee"], port);
    book.takenBySomeoneElse.add(FREE[0].start);
    const turn = await bookingTurn(state, "yes", caller, port);
    expect(turn!.reply).toMatch(/^I'm sorry, that time was taken by someone else a moment ago, so it is not booked\. The nearest free times are/);
    expect(turn!.events).toEqual(["taken", "offered"]);
    expect(book.booked).toHaveLength(0);
    state = turn!.state;
    expect(state?.stage).toBe("pick");
  });

  it("reschedules and cancels the caller's own appointment, found by their number", async () => {
    const { port, book } = fakeBook(FREE);
    await converse(["book a haircut tomorrow at 9, my name is Ann Lee", "yes"], port);
    const moved = await converse(["I need to reschedule my appointment", "Wednesday at 10", "yes"], port);
    expect(moved.replies[0]).toBe("I see your Haircut on Tuesday, March 16, 2027 at 9:00 AM for Ann Lee. What day and time would you like instead?");
    expect(moved.replies[1]).toBe("Just to confirm, I'll move your appointment to Haircut on Wednesday, March 17, 2027 at 10:00 AM for Ann Lee. Shall I make the change?");
    expect(moved.replies[2]).toMatch(/^Done: I've moved it\./);
    expect(book.booked.map((a) => [a.id, a.start])).toEqual([["appt-1", FREE[4].start]]);

    const other = await converse(["cancel my appointment"], port, { today: TODAY, callerPhone: "+14155550999" });
    expect(other.replies[0]).toBe("I can't find an upcoming appointment under this phone number. Would you like to book one?");

    const cancelled = await converse(["Please cancel my appointment", "yes"], port);
    expect(cancelled.replies[0]).toBe("I see your Haircut on Wednesday, March 17, 2027 at 10:00 AM for Ann Lee. Shall I cancel it?");
    expect(cancelled.replies[1]).toMatch(/^Your Haircut on Wednesday, March 17, 2027 at 10:00 AM for Ann Lee is cancelled\./);
    expect(book.cancelled).toEqual(["appt-1"]);
  });

  it("in a chat (no caller number) asks for the number before holding", async () => {
    const { port, book } = fakeBook(FREE);
    const chat = { today: TODAY, callerPhone: null };
    const { replies } = await converse(["book a haircut tomorrow at 11", "Jo Park", "(415) 555-0142", "yes"], port, chat);
    expect(replies[1]).toBe("And what's the best phone number for the booking?");
    expect(replies[2]).toMatch(/^Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 11:00 AM for Jo Park/);
    expect(book.booked[0].customerPhone).toBe("4155550142");
  });

  it("gives up after three turns it cannot follow, releasing the hold", async () => {
    const { port, book } = fakeBook(FREE);
    const { replies, state } = await converse(["book a haircut tomorrow at 9, my name is Ann Lee", "hmm", "what", "banana"], port);
    expect(replies[1]).toMatch(/^Sorry, was that a yes\?/);
    expect(replies[3]).toMatch(/^I'm sorry, I'm having trouble following\. Nothing has been booked\./);
    expect(state).toBeNull();
    expect(book.released).toEqual(["hold-1"]);
  });
});

describe("dates through the one reading (lib/agents/conversation/when.ts)", () => {
  const WEEK = [...FREE, slot("2027-03-18", "10:00"), slot("2027-03-18", "15:00"), slot("2027-03-17", "15:00")];

  it("asks again for a day that does not exist, and books nothing", async () => {
    const { port, book } = fakeBook(WEEK);
    const { replies, state } = await converse(["I'd like to book a haircut on February 30th"], port);
    expect(replies[0]).toMatch(/isn't a date on the calendar|is a date on the calendar/);
    expect(replies[0]).not.toMatch(/free times|Tuesday, March 16/);
    expect(state?.stage).toBe("when");
    expect(book.holds.size).toBe(0);
  });

  it("a mind change at the read-back replaces the pending choice", async () => {
    const { port, book } = fakeBook(WEEK);
    const first = await converse(["I'd like to book a haircut on Tuesday at 10", "Jane Doe"], port);
    expect(first.replies[1]).toMatch(/Tuesday, March 16, 2027 at 10:00 AM/);
    const changed = await converse(["Actually, Thursday at 3 instead"], port, caller, first.state);
    expect(changed.replies[0]).toMatch(/Thursday, March 18, 2027 at 3:00 PM/);
    expect(changed.events[0]).toContain("released");
    await converse(["yes"], port, caller, changed.state);
    expect(book.booked.map((a) => a.localDate)).toEqual(["2027-03-18"]);
  });

  it("\"move it to Thursday, same time\" moves the appointment to Thursday at its own time", async () => {
    const { port, book } = fakeBook(WEEK);
    const made = await converse(["I'd like to book a haircut on Wednesday at 3", "Jane Doe", "yes"], port);
    expect(book.booked).toHaveLength(1);
    expect(made.state).toBeNull();
    const moved = await converse(["Can you move it to Thursday, same time?", "yes"], port);
    expect(moved.replies[0]).toMatch(/Thursday, March 18, 2027 at 3:00 PM/);
    expect(book.booked.map((a) => [a.localDate, a.start])).toEqual([["2027-03-18", WEEK[6].start]]);
  });
  it("a new hour alone at the read-back keeps the day, read the way nearer the held time (\"make it 4 instead\" of 3 PM)", async () => {
    const { port, book } = fakeBook([...WEEK, slot("2027-03-17", "16:00"), slot("2027-03-18", "16:00")]);
    const first = await converse(["I'd like to book a haircut on Wednesday at 3", "Jane Doe"], port);
    expect(first.replies[1]).toMatch(/Wednesday, March 17, 2027 at 3:00 PM/);
    const changed = await converse(["hmm actually make it 4 instead", "yes"], port, caller, first.state);
    expect(changed.replies[0]).toMatch(/Wednesday, March 17, 2027 at 4:00 PM/);
    expect(book.booked.map((a) => [a.localDate, a.localTime])).toEqual([["2027-03-17", "16:00"]]);
  });

  it("\"Thursday, same time\" at the read-back of a new booking keeps the held time", async () => {
    const { port, book } = fakeBook(WEEK);
    const first = await converse(["I'd like to book a haircut on Wednesday at 3", "Jane Doe"], port);
    const changed = await converse(["oh shoot i work wednesday, can we do thursday same time", "yes"], port, caller, first.state);
    expect(changed.replies[0]).toMatch(/Thursday, March 18, 2027 at 3:00 PM/);
    expect(book.booked.map((a) => [a.localDate, a.localTime])).toEqual([["2027-03-18", "15:00"]]);
  });

  it("\"move it from Wednesday to Thursday at 10\" moves to the day it goes to; \"push it back to 4\" keeps the day", async () => {
    const { port, book } = fakeBook([...WEEK, slot("2027-03-18", "16:00")]);
    await converse(["I'd like to book a haircut on Wednesday at 3", "Jane Doe", "yes"], port);
    const moved = await converse(["i need to move my haircut from wednesday to thursday at 10", "yes"], port);
    expect(moved.replies[0]).toMatch(/Thursday, March 18, 2027 at 10:00 AM/);
    const pushed = await converse(["can you push my haircut back to 4", "yes"], port);
    expect(pushed.replies[0]).toMatch(/Thursday, March 18, 2027 at 4:00 PM/);
    expect(book.booked.map((a) => [a.localDate, a.localTime])).toEqual([["2027-03-18", "16:00"]]);
  });
});

describe("Spanish callers and signed texts", () => {
  it("a Spanish caller is read back and booked in Spanish, the weekday and the date named", async () => {
    const { port, book } = fakeBook(FREE);
    const ctx: DialogueContext = { ...caller, heard: { intent: "book", name: "Rosa Díaz", language: "es", service: "Haircut" } };
    const first = await converse(["quiero una cita para un corte el martes a las diez de la mañana"], port, ctx);
    expect(first.replies[0]).toMatch(/^Para confirmar: Haircut el martes 16 de marzo a las 10 de la mañana, a nombre de Rosa Díaz/);
    const yes = await converse(["sí, correcto"], port, { ...caller, heard: { intent: null, language: "es" } }, first.state);
    expect(yes.replies[0]).toMatch(/^Queda reservado: .*martes 16 de marzo/);
    expect(book.booked.map((a) => a.localTime)).toEqual(["10:00"]);
  });

  it("reads sí, claro and vale as yes", () => {
    expect(parseYesNo("sí, por favor")).toBe("yes");
    expect(parseYesNo("claro que sí")).toBe("yes");
    expect(parseYesNo("no, mejor otro día")).toBe("no");
  });

  it("a text signed with a name has that name; a closing word is not one", () => {
    expect(parseSignature("Hi can you send someone saturday at 10am? Kitchen faucet dripping. Tom Reid")).toBe("Tom Reid");
    expect(parseSignature("Can I book Friday at 3? Thanks")).toBeNull();
    expect(parseSignature("book me in for friday at 3")).toBeNull();
  });
});

describe("side questions, shifts, spans and policy questions (issue 27)", () => {
  it("reads how far a time moves: back an hour, 30 minutes earlier, half an hour forward; a call back in an hour moves nothing", () => {
    expect(shiftSaid("could we push it back an hour?")).toBe(60);
    expect(shiftSaid("can we do it 30 minutes earlier")).toBe(-30);
    expect(shiftSaid("bring it forward half an hour")).toBe(-30);
    expect(shiftSaid("two hours later please")).toBe(120);
    expect(shiftSaid("can you call me back in an hour")).toBeNull();
  });

  it("cancelling one time and asking for another is a move; pushing it back is a move; a bare cancel stays a cancel", () => {
    expect(parseBookingIntent("can you cancel my friday appointment and put me in saturday at 2 instead")).toBe("reschedule");
    expect(parseBookingIntent("hi, i have a haircut tomorrow at 2, could we push it back an hour?")).toBe("reschedule");
    expect(parseBookingIntent("i need to cancel my appointment on friday")).toBe("cancel");
  });

  it("\"push it back an hour\" moves the booked time one hour later, the same day", async () => {
    const { port, book } = fakeBook(FREE);
    await converse(["I'd like to book a haircut on Tuesday at 10", "Jane Doe", "yes"], port);
    const moved = await converse(["can we push my haircut back an hour", "yes"], port);
    expect(moved.replies[0]).toMatch(/Tuesday, March 16, 2027 at 11:00 AM/);
    expect(book.booked.map((a) => [a.localDate, a.localTime])).toEqual([["2027-03-16", "11:00"]]);
  });

  it("a booking set aside for another question is picked up by the day and time said next, not started over", async () => {
    const { port, book } = fakeBook(FREE);
    const offered = await converse(["I'd like a haircut on Tuesday, my name is Jane Doe"], port, { ...caller, heard: { intent: "book" } });
    expect(offered.state?.stage).toBe("pick");
    const aside = pausedState(offered.state!);
    expect(aside).toMatchObject({ paused: true, serviceName: "Haircut" });
    expect(await bookingTurn(aside, "What are your hours?", caller, port)).toBeNull();
    const resumed = await converse(["ok great, 2 pm tuesday then", "yes"], port, caller, aside);
    expect(resumed.replies[0]).toMatch(/Haircut on Tuesday, March 16, 2027 at 2:00 PM for Jane Doe/);
    expect(book.booked.map((a) => a.localTime)).toEqual(["14:00"]);
  });

  it("a name said with the chosen time while times are offered is kept, not asked for again (gen3)", async () => {
    const { port, book } = fakeBook(FREE);
    const offered = await converse(["I'd like a haircut on Tuesday"], port, { ...caller, heard: { intent: "book" } });
    expect(offered.state?.stage).toBe("pick");
    const chosen = await converse(["whoever's free, tuesday at 2, my name is jane doe"], port, { ...caller, heard: { intent: "book", name: "Jane Doe" } }, offered.state);
    expect(chosen.replies[0]).toMatch(/Tuesday, March 16, 2027 at 2:00 PM for Jane Doe/);
    await converse(["yes"], port, caller, chosen.state);
    expect(book.booked.map((a) => [a.localTime, a.customerName])).toEqual([["14:00", "Jane Doe"]]);
  });

  it("\"first thing Tuesday\" offers the day's first free time alone, and a yes takes it", async () => {
    const { port, book } = fakeBook(FREE);
    const { replies } = await converse(["can I get a haircut first thing tuesday, it's Jane Doe", "yeah that works", "yes"], port, { ...caller, heard: { intent: "book" } });
    expect(replies[0]).toMatch(/9:00 AM/);
    expect(replies[0]).not.toMatch(/10:00 AM/);
    expect(book.booked.map((a) => a.localTime)).toEqual(["09:00"]);
  });

  it("times inside a span are offered (\"the end of next week\"), and a weekday said next is the one inside it", async () => {
    const LATER = [...FREE, slot("2027-03-24", "10:00"), slot("2027-03-25", "10:00"), slot("2027-03-26", "14:00"), slot("2027-03-19", "14:00")];
    const { port, book } = fakeBook(LATER);
    const { replies } = await converse(["I'd like a haircut sometime at the end of next week, my name is Jane Doe", "friday at 2 works", "yes"], port, { ...caller, heard: { intent: "book" } });
    expect(replies[0]).toMatch(/Thursday, March 25/);
    expect(replies[0]).not.toMatch(/March 16|March 19/);
    expect(book.booked.map((a) => a.localDate)).toEqual(["2027-03-26"]);
  });

  it("a question about a policy that names an appointment is not a booking", async () => {
    const { port } = fakeBook(FREE);
    const ctx: DialogueContext = { ...caller, heard: { intent: null, question: true } };
    expect(await bookingTurn(null, "what happens if i'm running late to my appointment", ctx, port)).toBeNull();
    expect(await bookingTurn(null, "can i book an appointment tuesday at 10", { ...caller, heard: { intent: "book" } }, port)).not.toBeNull();
  });

  it("a yes is not a name", () => {
    expect(parseName("yep", { alone: true })).toBeNull();
    expect(parseName("yeah", { alone: true })).toBeNull();
  });
});

describe("one word naming several services (issue 27)", () => {
  it("\"anything for a haircut tuesday morning?\" asks which one and names the morning's times; the answer keeps the day", async () => {
    const { port: base } = fakeBook(FREE);
    const port: BookingPort = { ...base, services: async () => [{ id: "svc-1", name: "Men's Haircut" }, { id: "svc-2", name: "Women's Haircut" }, { id: "svc-3", name: "Color" }] };
    const ctx: DialogueContext = { ...caller, heard: { intent: "book" } };
    const { replies } = await converse(["anything for a haircut tuesday morning?", "women's please"], port, ctx);
    expect(replies[0]).toMatch(/Men's Haircut or a Women's Haircut/);
    expect(replies[0]).toMatch(/9:00 AM.*10:00 AM.*11:00 AM/);
    expect(replies[0]).not.toMatch(/2:00 PM/);
    expect(replies[1]).toMatch(/Tuesday, March 16/);
  });
});

describe("an hour said without am/pm, and getting someone in (issue 27)", () => {
  it("\"Tuesday at 8\" where only the evening is free is 8 PM, read back so", async () => {
    const { port, book } = fakeBook([slot("2027-03-16", "17:00"), slot("2027-03-16", "20:00")]);
    const { replies } = await converse(["a haircut tuesday at 8 please, under Jane Doe", "yes"], port, { ...caller, heard: { intent: "book", name: "Jane Doe" } });
    expect(replies[0]).toMatch(/Tuesday, March 16, 2027 at 8:00 PM/);
    expect(book.booked.map((a) => a.localTime)).toEqual(["20:00"]);
  });

  it("\"what's the earliest you can get me in?\" and \"squeeze me in\" are bookings", () => {
    expect(parseBookingIntent("what's the earliest you can get me in for a cleaning?")).toBe("book");
    expect(parseBookingIntent("could you squeeze me in tomorrow")).toBe("book");
  });
});

describe("the service more of whose words were said (issue 27)", () => {
  it("\"get my teeth cleaned\" is Teeth Cleaning, not Teeth Whitening; \"teeth\" alone is either", () => {
    const services = [{ name: "Teeth Cleaning" }, { name: "Teeth Whitening" }, { name: "Filling" }];
    expect(matchService("i was hoping to get my teeth cleaned next week", services)?.name).toBe("Teeth Cleaning");
    expect(matchService("something for my teeth", services)).toBeNull();
  });
});

describe("a bare hour among the times offered (issue 27)", () => {
  it("\"10 works\" after 9, 10 and 11 were offered takes 10 AM; ", async () => {
    const { port } = fakeBook(FREE);
    const offered = await converse(["I'd like a haircut on Tuesday, my name is Jane Doe"], port, { ...caller, heard: { intent: "book" } });
    expect(offered.replies[0]).toMatch(/9:00 AM, 10:00 AM or 11:00 AM/);
    const picked = await converse(["10 works"], port, caller, offered.state);
    expect(picked.replies[0]).toMatch(/Tuesday, March 16, 2027 at 10:00 AM for Jane Doe/);
  });
});

describe("the following day, and a move by hours (issue 27)", () => {
  it("\"make it the following day, same time\" at the read-back is the next day at that time", async () => {
    const { port, book } = fakeBook(FREE);
    const first = await converse(["I'd like a haircut on Tuesday at 10, my name is Jane Doe"], port, { ...caller, heard: { intent: "book" } });
    const changed = await converse(["actually, make it the following day, same time", "yes"], port, caller, first.state);
    expect(changed.replies[0]).toMatch(/Wednesday, March 17, 2027 at 10:00 AM/);
    expect(book.booked.map((a) => a.localDate)).toEqual(["2027-03-17"]);
  });

  it("\"could I move it two hours earlier?\" is a move", () => {
    expect(parseBookingIntent("i'm booked friday at 3, could i move it two hours earlier?")).toBe("reschedule");
  });
});

describe("a name where a yes was asked for, and names after \"it's\" (gen2)", () => {
  it("\"it's been swollen\" and \"I'm just calling\" are no names; \"it's for Omar Haddad\" is one", () => {
    expect(parseName("so it's been swollen and my doctor said i should come in")).toBeNull();
    expect(parseName("hi i'm just calling about a haircut")).toBeNull();
    expect(parseName("it's for omar haddad")).toBe("Omar Haddad");
    expect(parseName("sounds good", { alone: true })).toBeNull();
  });

  it("a bare name is two or three words that are no answer, question or day", () => {
    expect(bareName("vera lind")).toBe("Vera Lind");
    expect(bareName("Karen Holt.")).toBe("Karen Holt");
    for (const not of ["sounds good", "that works", "the first one", "what about friday", "yes", "maybe later", "perfect thanks"]) expect([not, bareName(not)]).toEqual([not, null]);
  });

  it("a read-back with the wrong name, answered with the right one, is read back again under it", async () => {
    const { port, book } = fakeBook(FREE);
    const first = await converse(["I'd like to book a haircut on Tuesday at 10, my name is Jane Doe"], port, { ...caller, heard: { intent: "book" } });
    expect(first.replies[0]).toMatch(/for Jane Doe\. Shall I book it\?/);
    const renamed = await converse(["karen holt", "yes"], port, caller, first.state);
    expect(renamed.replies[0]).toMatch(/Tuesday, March 16, 2027 at 10:00 AM for Karen Holt\. Shall I book it\?/);
    expect(book.booked.map((a) => a.customerName)).toEqual(["Karen Holt"]);
  });
});
