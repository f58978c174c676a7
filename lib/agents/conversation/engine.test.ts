import { DEFAULT_CALL_RULES } from "@/db/schema";
import { bookingHeard, decide, type Situation } from "./engine";
import type { Understanding } from "./understanding/types";

const base: Omit<Situation, "text" | "understanding"> = {
  channel: "call",
  takingMessage: false,
  bookingActive: false,
  forwardTo: null,
  rules: DEFAULT_CALL_RULES,
  silentPrompts: 0,
  canTransfer: true,
};
const heard = (u: Partial<Understanding>): Understanding => ({ language: "en", intent: "other", confidence: 1, intents: [], ...u }) as Understanding;

describe("decide: a call back asked for", () => {
  it("with who and what about in the same words is written down at once, not asked for again", () => {
    const text = "can the doctor call me about my dog's lab results, my number is 480 555 0122, it's greg hunt";
    const d = decide({ ...base, text, understanding: heard({ intent: "callback", confidence: 0.9, name: "Greg Hunt", phone: "+14805550122" }) });
    expect(d).toMatchObject({ kind: "take_message" });
  });

  it("by text, a name is enough: the number is the sender's", () => {
    const text = "¿me pueden llamar? Soy Carla";
    const d = decide({ ...base, channel: "sms", canTransfer: false, text, understanding: heard({ language: "es", intent: "callback", confidence: 0.9, name: "Carla" }) });
    expect(d).toMatchObject({ kind: "take_message" });
  });

  it("without a name or a subject asks what to pass on", () => {
    const d = decide({ ...base, text: "can someone call me back", understanding: heard({ intent: "callback", confidence: 0.9 }) });
    expect(d).toMatchObject({ kind: "ask_message", reason: "callback" });
  });
});

describe("decide: a call asked for in so many words (Spanish callers, gen3)", () => {
  it("with a name and a number, a middling call-back reading is written down at once", () => {
    const text = "por favor, que me llame la doctora patel al tres uno dos, cinco cinco cinco, cero nueve ocho siete, soy mónica lara";
    const u = heard({ language: "es", intent: "callback", confidence: 0.58, name: "Mónica Lara", phone: "+13125550987", person: "Dr. Priya Patel" });
    expect(decide({ ...base, text, understanding: u })).toMatchObject({ kind: "take_message" });
    // The same score without the ask in words is no call back.
    expect(decide({ ...base, text: "la doctora patel, soy mónica lara", understanding: u }).kind).not.toBe("take_message");
  });

  it("about a service with no day or time, is a call back, not the booking questions", () => {
    const text = "buenas, quiero que me llame el plomero para una cotización de un calentador, me llamo ernesto vidal";
    const u = heard({ language: "es", intent: "book", confidence: 0.79, name: "Ernesto Vidal" });
    expect(decide({ ...base, text, understanding: u })).toMatchObject({ kind: "ask_message", reason: "callback" });
    // Asking to book, with no call asked for, stays a booking.
    expect(decide({ ...base, text: "quiero una cotización de un calentador, me llamo ernesto vidal", understanding: u })).toMatchObject({ kind: "answer" });
  });
});

describe("decide: after the offer to take a message", () => {
  const offered = { ...base, offeredMessage: true };
  it("a yes asks for the message, a yes with words takes them as the message", () => {
    expect(decide({ ...offered, text: "yes please", understanding: heard({ intent: "yes", confidence: 0.9 }) })).toMatchObject({ kind: "ask_message", reason: "other" });
    const text = "sí, dígales que quiero saber si lavan cortinas de terciopelo, soy rosa méndez";
    expect(decide({ ...offered, text, understanding: heard({ language: "es", intent: "yes", confidence: 0.7, name: "Rosa Méndez" }) })).toMatchObject({ kind: "take_message", urgent: false });
  });

  it("a yes that goes on to another question is that question", () => {
    expect(decide({ ...offered, text: "yes, what are your hours on saturday?", understanding: heard({ intent: "hours", confidence: 0.9 }) })).toMatchObject({ kind: "answer" });
    expect(decide({ ...offered, text: "yeah can I book a cleaning for next week", understanding: heard({ intent: "book", confidence: 0.85 }) })).toMatchObject({ kind: "answer" });
  });

  it("a message with a name, without the yes, is taken", () => {
    const text = "tell them the fence post fell onto my side of the yard, this is Walt Meyer";
    expect(decide({ ...offered, text, understanding: heard({ intent: "message", confidence: 0.7, name: "Walt Meyer" }) })).toMatchObject({ kind: "take_message" });
  });

  it("a yes with no offer made is not a message", () => {
    expect(decide({ ...base, text: "yes please", understanding: heard({ intent: "yes", confidence: 0.9 }) }).kind).not.toBe("ask_message");
  });
});

describe("decide: a question that comes with a request for a call", () => {
  it("is written down as the message when the caller gave a name, whatever the question was", () => {
    const text = "do you cater weddings? could you have someone call me, this is ann cole";
    const d = decide({ ...base, text, understanding: heard({ intent: "services", confidence: 0.9, name: "Ann Cole" }) });
    expect(d).toMatchObject({ kind: "take_message", urgent: false, reason: "callback" });
  });

  it("is answered when nobody asked for a call", () => {
    const d = decide({ ...base, text: "do you cater weddings? this is ann cole", understanding: heard({ intent: "services", confidence: 0.9, name: "Ann Cole" }) });
    expect(d).toMatchObject({ kind: "answer" });
  });
});

describe("decide: complaints", () => {
  it("a complaint read with middling confidence is still written down as urgent", () => {
    const d = decide({ ...base, text: "my nails are chipping already and i'm upset", understanding: heard({ intent: "complaint", confidence: 0.55 }) });
    expect(d).toMatchObject({ kind: "urgent_task", reason: "complaint" });
  });

  it("a complaint that asks for the manager, with nobody to transfer to, is an urgent task", () => {
    const text = "you dented my bumper and i want the manager";
    const u = heard({ intent: "person", confidence: 0.7, intents: [{ intent: "person", score: 0.7 }, { intent: "complaint", score: 0.3 }] });
    expect(decide({ ...base, canTransfer: false, text, understanding: u })).toMatchObject({ kind: "urgent_task", reason: "complaint" });
    // With someone to put them through to, they are put through.
    expect(decide({ ...base, forwardTo: "+15555550100", text, understanding: u })).toMatchObject({ kind: "transfer" });
  });
});

describe("decide: issue 27's generalisations", () => {
  it("an opt-out reading needs opt-out words: \"legal advice over the phone\" is not one", () => {
    const u = heard({ intent: "opt_out", confidence: 0.9 });
    expect(decide({ ...base, text: "can one of the lawyers give me some quick legal advice over the phone", understanding: u })).toMatchObject({ kind: "answer" });
    expect(decide({ ...base, text: "can you stop sending me texts", understanding: u })).toMatchObject({ kind: "opt_out" });
    expect(decide({ ...base, text: "dejen de mandarme mensajes", understanding: { ...u, language: "es" } })).toMatchObject({ kind: "opt_out" });
  });

  it("an emergency read with a middling score counts when the harm is said in so many words, in either language", () => {
    const text = "oiga, me sangra mucho la muela desde anoche y no para, ¿qué hago?";
    const u = heard({ language: "es", intent: "emergency", confidence: 0.54 });
    expect(decide({ ...base, forwardTo: "+13125550190", text, understanding: u })).toMatchObject({ kind: "transfer", reason: "emergency" });
    // Without harm said, a middling emergency reading is not enough to put anyone through.
    expect(decide({ ...base, forwardTo: "+13125550190", text: "oiga, ¿qué hago?", understanding: u }).kind).not.toBe("transfer");
  });

  it("an emergency with nobody to put through to, from a caller who gave their name, is an urgent task now", () => {
    const text = "my jaw is really swollen and i've got a fever, it's an emergency, this is ray soto";
    expect(decide({ ...base, text, understanding: heard({ intent: "emergency", confidence: 0.95, name: "Ray Soto" }) })).toMatchObject({ kind: "take_message", urgent: true, reason: "emergency" });
    expect(decide({ ...base, text: "it's an emergency", understanding: heard({ intent: "emergency", confidence: 0.95 }) })).toMatchObject({ kind: "ask_message", reason: "emergency" });
  });

  it("a named person asked to call back, with the caller's name and number said, is written down for them now", () => {
    const text = "can jess call me back? it's siobhan kerr, my number is 323 555 0144";
    const u = heard({ intent: "person", confidence: 1, person: "Jess", name: "Siobhan Kerr", phone: "+13235550144" });
    expect(decide({ ...base, text, understanding: u })).toMatchObject({ kind: "take_message", reason: "person" });
  });

  it("a price question while times are offered leaves the booking to be answered", () => {
    const d = decide({ ...base, bookingActive: true, text: "how much is the service call by the way", understanding: heard({ intent: "price", confidence: 0.9 }) });
    expect(d).toMatchObject({ kind: "answer", leaveBooking: true });
  });

  it("a question about a policy that names an appointment is marked as a question for the booking dialogue", () => {
    expect(bookingHeard(heard({ intent: "policy", confidence: 0.88 }))).toMatchObject({ intent: null, question: true });
    expect(bookingHeard(heard({ intent: "book", confidence: 0.9 }))?.question).toBeUndefined();
  });
});

describe("decide: a half-heard complaint during a booking", () => {
  it("is an answer to the booking (a name, a time), not an urgent task; outside a booking it is taken down", () => {
    const u = heard({ intent: "complaint", confidence: 0.54 });
    expect(decide({ ...base, bookingActive: true, text: "Racer Two", understanding: u })).toMatchObject({ kind: "answer" });
    expect(decide({ ...base, text: "the color came out orange", understanding: u })).toMatchObject({ kind: "urgent_task" });
  });
});

describe("decide: a farewell reading that names a day", () => {
  it("\"actually, make it the following day, same time\" is not a goodbye", () => {
    const u = heard({ intent: "goodbye", confidence: 0.75, when: { text: "same time", sameTime: true } });
    expect(decide({ ...base, bookingActive: true, text: "actually, make it the following day, same time", understanding: u })).toMatchObject({ kind: "answer" });
    expect(decide({ ...base, text: "ok bye", understanding: heard({ intent: "goodbye", confidence: 0.9 }) })).toMatchObject({ kind: "end" });
  });
});

describe("decide: a goodbye reading needs a farewell's words", () => {
  it("\"And on Saturdays?\" read as goodbye does not end the call", () => {
    expect(decide({ ...base, text: "And on Saturdays?", understanding: heard({ intent: "goodbye", confidence: 0.99 }) })).toMatchObject({ kind: "answer" });
    expect(decide({ ...base, text: "actually i'll just call back later", understanding: heard({ intent: "goodbye", confidence: 0.99 }) })).toMatchObject({ kind: "end" });
  });
});

describe("decide: an opt-out said outright", () => {
  it("counts at a middling score; the same score without the words does not", () => {
    const u = heard({ intent: "opt_out", confidence: 0.59, intents: [{ intent: "opt_out", score: 0.59 }] });
    expect(decide({ ...base, text: "please don't text me anymore about reservations", understanding: u })).toMatchObject({ kind: "opt_out" });
    expect(decide({ ...base, text: "what time are reservations on sunday", understanding: u })).toMatchObject({ kind: "answer" });
  });
});

describe("decide: someone asked for by a name nobody on the staff has (gen2)", () => {
  const people = ["Jess", "Marco"];
  it("\"is Brittany working Saturday?\" says there is no Brittany, with who does work there", () => {
    const d = decide({ ...base, people, text: "hey is brittany working this saturday?", understanding: heard({ intent: "hours", confidence: 0.9 }) });
    expect(d).toEqual({ kind: "no_such_person", name: "Brittany", staff: people });
  });

  it("a name on the staff, a role, or a business without a staff list is not that", () => {
    expect(decide({ ...base, people, text: "is marco working saturday?", understanding: heard({ intent: "hours", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
    expect(decide({ ...base, people, text: "can i talk to the manager", understanding: heard({ intent: "person", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
    expect(decide({ ...base, people, text: "is anyone there?", understanding: heard({ intent: "other", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
    expect(decide({ ...base, text: "can i talk to brittany", understanding: heard({ intent: "person", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
    expect(decide({ ...base, people: ["Dr. Chen"], text: "can i speak with dr chen", understanding: heard({ intent: "person", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
  });
});

describe("decide: a request withdrawn on the way out (gen2)", () => {
  it("\"never mind, I'll call back when I know my schedule\" ends the call, whatever the model read", () => {
    const d = decide({ ...base, bookingActive: true, text: "hmm, never mind, i'll call back when i know my schedule", understanding: heard({ intent: "complaint", confidence: 0.8 }) });
    expect(d).toEqual({ kind: "end" });
  });
  it("harm said with it is still heard; \"never mind\" alone is no farewell", () => {
    expect(decide({ ...base, text: "never mind the bill, there's water flooding everywhere, thanks", understanding: heard({ intent: "emergency", confidence: 0.9 }) }).kind).not.toBe("end");
    expect(decide({ ...base, text: "never mind", understanding: heard({ intent: "other", confidence: 0.9 }) }).kind).not.toBe("end");
  });
});

describe("bookingHeard: a service whose name holds a word of moving (gen2)", () => {
  it("\"oil change fri 10am?\" read as a move is a booking; \"change my oil change to friday\" stays a move", () => {
    const service = { name: "Oil Change" } as Understanding["service"];
    const booking = heard({ intent: "reschedule", confidence: 0.7, service, when: { text: "oil change fri 10am? jen park", date: "2026-12-04", time: "10:00" } });
    expect(bookingHeard(booking)?.intent).toBe("book");
    const move = heard({ intent: "reschedule", confidence: 0.7, service, when: { text: "can i move my oil change to friday at 10", date: "2026-12-04", time: "10:00" } });
    expect(bookingHeard(move)?.intent).toBe("reschedule");
  });
});

describe("decide: a call back about setting up a booking (gen3)", () => {
  const text = "can somebody ring me back about setting up a cleaning every other week? my number is 404 555 0188, name's darnell watts";
  it("with a name and a number but no day is written down as a call-back, not a booking", () => {
    const u = heard({ intent: "book", confidence: 0.55, intents: [{ intent: "book", score: 0.55 }, { intent: "callback", score: 0.45 }], name: "Darnell Watts", phone: "+14045550188" });
    expect(decide({ ...base, text, understanding: u })).toMatchObject({ kind: "take_message", reason: "callback" });
  });
  it("a booking with a day named stays a booking", () => {
    const u = heard({ intent: "book", confidence: 0.55, intents: [{ intent: "book", score: 0.55 }, { intent: "callback", score: 0.45 }], name: "Darnell Watts", phone: "+14045550188", when: { text: "friday at 10", date: "2026-12-04", time: "10:00" } });
    expect(decide({ ...base, text: `${text} friday at 10`, understanding: u })).toMatchObject({ kind: "answer" });
  });
});

describe("decide: someone nobody on the staff is called (gen3)", () => {
  const people = ["Dr. Chen", "Dr. Patel"];
  it("\"I'd like to see Dr. Robinson\" is told who does work there", () => {
    const d = decide({ ...base, people, text: "i'd like to see dr. robinson", understanding: heard({ intent: "person", confidence: 0.8 }) });
    expect(d).toMatchObject({ kind: "no_such_person", name: "Robinson" });
  });
  it("with a service to book in the same words, the booking goes on", () => {
    const u = heard({ intent: "book", confidence: 0.9, service: { name: "Teeth Cleaning", score: 0.8 } });
    expect(decide({ ...base, people, text: "i'd like to see dr. robinson for a cleaning", understanding: u })).toMatchObject({ kind: "answer" });
  });
});

describe("decide: a person asked for by name in Spanish", () => {
  const people = ["Dr. Chen", "Dr. Patel"];
  it("\"¿está el doctor Ramírez?\" where nobody is called Ramírez: no such person, naming who works there", () => {
    // Understanding reads the title alone as the first "Dr." on the staff; the name said decides.
    const d = decide({ ...base, people, text: "buenas tardes, ¿está el doctor ramírez?", understanding: heard({ intent: "person", confidence: 0.9, person: "Dr. Chen" }) });
    expect(d).toEqual({ kind: "no_such_person", name: "Ramírez", staff: people });
  });
  it("\"¿se encuentra la doctora Chen?\" is someone who works there; \"¿está bien?\" asks for nobody", () => {
    expect(decide({ ...base, people, text: "hola, ¿se encuentra la doctora chen?", understanding: heard({ intent: "person", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
    expect(decide({ ...base, people, text: "¿está bien?", understanding: heard({ intent: "other", confidence: 0.9 }) }).kind).not.toBe("no_such_person");
  });
});
