/**
 * The local responder: intent classification by keyword scoring, replies built from the business
 * profile and the assistant's personality, and honesty — it never states a price it does not have.
 */
import { splitSentences } from "@/lib/platform/text/sentences";
import type { ReplyInput } from "./interface";
import { classifyIntent, mentionedWhen } from "./intents";
import { createLocalResponder } from "./local";

const llm = createLocalResponder();

const base: ReplyInput = {
  assistant: {
    name: "Front Desk",
    personality: "friendly",
    instructions: "Greet callers warmly, offer the next free appointment, never quote prices you do not have.",
    greeting: "Thanks for calling Harbor Dental Studio, this is the front desk. How can I help?",
  },
  profile: {
    name: "Harbor Dental Studio",
    hours: "Mon–Fri 8 AM–6 PM, Sat 9 AM–1 PM",
    address: "214 Harbor Street, Portland, OR 97201",
    services: ["cleanings", "whitening", "fillings", "night guards", "emergency visits"],
  },
  history: [],
  text: "",
};

const ask = (text: string, extra: Partial<ReplyInput> = {}) => llm.generateReply({ ...base, ...extra, text });

describe("intent classification", () => {
  it.each([
    ["Hello, I'd like to book an appointment", "appointment"],
    ["What are your opening hours?", "hours"],
    ["Are you open on Saturday?", "hours"],
    ["How much does a cleaning cost?", "pricing"],
    ["Can I speak to a person?", "human_handoff"],
    ["Please transfer me to a real person", "human_handoff"],
    ["I have a problem with my bill", "complaint"],
    ["The service was terrible and the staff were rude", "complaint"],
    ["Where is my order? It hasn't been delivered", "order"],
    ["I'd like to track my package", "order"],
    ["Congratulations, you've won a free cruise! Press 1 to claim your prize", "spam"],
    ["We're calling about your car's extended warranty", "spam"],
    ["Hi there!", "greeting"],
    ["Good morning", "greeting"],
    ["Do you have parking?", "other"],
    ["Can I reschedule my appointment to Friday?", "appointment"],
    ["I'd like to order a birthday cake", "order"],
    ["Can I order a cake for Saturday?", "order"],
    ["We want to place an order for the office party", "order"],
    ["I'd like to pre-order two loaves of sourdough", "order"],
    ["Are you open on Sunday?", "hours"],
  ])("%s → %s", (text, intent) => {
    expect(classifyIntent(text).intent).toBe(intent);
  });

  it("reads a time given after the assistant asked for one as part of the booking", () => {
    const history = [
      { role: "user" as const, content: "I'd like an appointment", intent: "appointment" },
      { role: "assistant" as const, content: "What day and time work best for you?", intent: "appointment" },
    ];
    expect(classifyIntent("Tuesday at 3pm").intent).toBe("other");
    expect(classifyIntent("Tuesday at 3pm", history).intent).toBe("appointment");
    expect(mentionedWhen("maybe tomorrow morning?")).toBe("tomorrow morning");
  });
});

describe("replies", () => {
  it("never invents prices: no amounts, an offer to take the question for the team and no promise", async () => {
    for (const text of ["How much does a cleaning cost?", "What are your prices?", "Is whitening expensive? What's the fee in $?"]) {
      const reply = await ask(text);
      expect(reply.intent).toBe("pricing");
      expect(reply.text).not.toMatch(/[$€£]|\d/);
      expect(reply.text).toMatch(/take your name and number/i);
      expect(reply.text).not.toMatch(/follow up|will call/i);
      expect(reply.text).toMatch(/automated assistant/i);
    }
    const reply = await ask("How much does a cleaning cost?");
    expect(reply.text).toContain("a quote for cleanings");
  });

  it("answers hours and address from the business profile", async () => {
    const reply = await ask("What are your opening hours?");
    expect(reply.text).toContain("Mon–Fri 8 AM–6 PM, Sat 9 AM–1 PM");
    expect(reply.text).toContain("214 Harbor Street");
  });

  it("says it does not know the hours when the profile has none, instead of guessing", async () => {
    const reply = await ask("When are you open?", { profile: { name: "Acme Plumbing" } });
    expect(reply.intent).toBe("hours");
    expect(reply.text).toMatch(/don't have Acme Plumbing's opening hours/);
    expect(reply.text).not.toMatch(/\d/);
  });

  it("uses the assistant's greeting on the first turn", async () => {
    expect((await ask("Hello")).text).toBe(base.assistant.greeting);
  });

  it("takes the tone of the personality", async () => {
    const friendly = await ask("I have a problem with my bill");
    const professional = await ask("I have a problem with my bill", { assistant: { ...base.assistant, personality: "professional" } });
    expect(friendly.text).toMatch(/^Oh no, I'm sorry to hear that\./);
    expect(professional.text).toMatch(/^I apologize for the trouble\./);
    expect(friendly.text).toContain("problem with your bill");
  });

  it("follows the instructions' cue to offer the next free appointment", async () => {
    const reply = await ask("Hello, I'd like to book an appointment");
    expect(reply.intent).toBe("appointment");
    expect(reply.text).toContain("next free appointment");
    expect(reply.text).toMatch(/What day and time work best for you\?$/);
  });

  it("continues a booking from the conversation history without claiming it is confirmed", async () => {
    const first = await ask("I'd like to book a cleaning");
    const second = await ask("Tuesday at 3pm", {
      history: [
        { role: "user", content: "I'd like to book a cleaning", intent: first.intent },
        { role: "assistant", content: first.text, intent: first.intent },
      ],
    });
    expect(second.intent).toBe("appointment");
    expect(second.text).toMatch(/^Tuesday at 3pm — noted\./);
    expect(second.text).toMatch(/can't see the live calendar/);
  });

  it("hands over to a person honestly", async () => {
    const reply = await ask("Can I speak to a person?");
    expect(reply.text).toMatch(/automated assistant/);
    expect(reply.text).toMatch(/name and the best number/);
  });

  it("declines spam", async () => {
    expect((await ask("You've won a free cruise, press 1 now")).text).toMatch(/not interested/);
  });

  it("streams the reply sentence by sentence, then the whole reply with its intent", async () => {
    const events = [];
    for await (const event of llm.streamReply({ ...base, text: "What are your opening hours?" })) events.push(event);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    const deltas = events.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : ""));
    expect(deltas.length).toBe(splitSentences(done?.type === "done" ? done.reply.text : "").length);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("").trim()).toBe(done?.type === "done" ? done.reply.text : "");
  });
});

describe("what the owner told the assistant (a fresh sign-up, not the demo)", () => {
  // A new bakery: the starter assistant's profile is just the organization's name; the owner wrote the rest.
  const bakery: ReplyInput = {
    assistant: {
      name: "Front Desk",
      personality: "friendly",
      instructions:
        "Greet callers warmly. open Tue–Sun 7am–3pm. Custom cakes need 48 hours' notice; birthday cakes start at $35. Tell callers we deliver within 5 miles on Saturdays.",
      greeting: "Thanks for calling Rosa's Bakery! How can I help you today?",
    },
    profile: { name: "Rosa's Bakery" },
    history: [],
    text: "",
  };
  const askBakery = (text: string, extra: Partial<ReplyInput> = {}) => llm.generateReply({ ...bakery, ...extra, text });

  it("answers the hours from the instructions instead of claiming not to have them", async () => {
    for (const question of ["When are you open?", "What are your opening hours?", "Are you open on Monday?"]) {
      const reply = await askBakery(question);
      expect(reply.intent).toBe("hours");
      expect(reply.text).toContain("We're open Tue–Sun 7am–3pm.");
      expect(reply.text).not.toMatch(/don't have|won't guess/);
    }
  });

  it("finds hours written in the greeting too", async () => {
    const reply = await askBakery("what are your hours", {
      assistant: { ...bakery.assistant, instructions: "", greeting: "Thanks for calling Rosa's Bakery, open Tue-Sun 7-3!" },
    });
    expect(reply.text).toContain("We're open Tue-Sun 7-3.");
  });

  it("answers from the numbers' business hours (given as profile hours) and says whether it is open now", async () => {
    const closed = await askBakery("Are you open right now?", {
      assistant: { ...bakery.assistant, instructions: "" },
      profile: { name: "Rosa's Bakery", hours: "Tue–Sun 7 AM–3 PM", openNow: false },
    });
    expect(closed.text).toMatch(/^We're closed right now\. Our hours are Tue–Sun 7 AM–3 PM\./);
    const open = await askBakery("Are you open right now?", { profile: { name: "Rosa's Bakery", hours: "Tue–Sun 7 AM–3 PM", openNow: true } });
    expect(open.text).toMatch(/^We're open right now\. Our hours are Tue–Sun 7 AM–3 PM\./);
  });

  it("classes an order as an order, takes it down without confirming it, and adds what it was told about it", async () => {
    const reply = await askBakery("I'd like to order a birthday cake");
    expect(reply.intent).toBe("order");
    expect(reply.text).toContain("you'd like to order a birthday cake");
    expect(reply.text).toContain("Birthday cakes start at $35.");
    expect(reply.text).toMatch(/write it down for the team at Rosa's Bakery to confirm/);
    expect(reply.text).not.toMatch(/they'll confirm/);
    expect(reply.text).toMatch(/name and the best number/);
    expect(reply.text).not.toMatch(/order number/);
  });

  it("states a price the owner wrote, and still invents none", async () => {
    const priced = await askBakery("How much is a birthday cake?");
    expect(priced.intent).toBe("pricing");
    expect(priced.text).toContain("Birthday cakes start at $35.");
    expect(priced.text).not.toMatch(/don't have exact prices/);
    const unpriced = await askBakery("How much is a birthday cake?", { assistant: { ...bakery.assistant, instructions: "open Tue–Sun 7am–3pm" } });
    expect(unpriced.text).not.toMatch(/[$€£]/);
    expect(unpriced.text).toMatch(/don't have exact prices/);
  });

  it("relays any other statement that answers the question, turned from an instruction into a statement", async () => {
    const reply = await askBakery("Do you deliver?");
    expect(reply.text).toContain("We deliver within 5 miles on Saturdays.");
    expect(reply.text).not.toMatch(/Tell callers/);
  });

  it("does not read directives about manner back to callers", async () => {
    const reply = await askBakery("Do you greet people warmly?");
    expect(reply.text).not.toMatch(/Greet callers warmly/);
  });

  it("still admits what it was not told", async () => {
    const reply = await askBakery("What's your address?");
    expect(reply.text).toMatch(/don't have our address/);
    const told = await askBakery("What's your address?", {
      assistant: { ...bakery.assistant, instructions: "We're at 9 Baker Lane, next to the post office." },
    });
    expect(told.text).toContain("We're at 9 Baker Lane, next to the post office.");
  });
});

describe("sentence splitting", () => {
  it("splits on sentence ends but not on decimals or abbreviations", () => {
    expect(splitSentences("Dr. Smith is in. It costs 3.5 units! Right? Yes")).toEqual(["Dr. Smith is in.", "It costs 3.5 units!", "Right?", "Yes"]);
  });
});

describe("facts the local responder finds however the question is put (issue 27)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Front Range Plumbing",
    serviceDetails: [
      { name: "Initial Consultation", price: "$150" },
      { name: "Wellness Exam", price: "$65" },
    ],
    faqs: [{ question: "What area do you serve?", answer: "Denver, Lakewood, Arvada, Wheat Ridge and Englewood." }],
    policies: [
      { title: "Late arrivals", text: "If you are more than 15 minutes late we may need to reschedule." },
      { title: "Cancellation", text: "Please cancel at least 24 hours ahead; late cancellations may be charged $50." },
    ],
  };

  it("a place the caller names that an FAQ answer lists is answered with that answer", async () => {
    expect((await ask("do you service arvada", { profile })).text).toMatch(/Arvada/);
    expect((await ask("do you service boulder", { profile })).text).not.toMatch(/Arvada/);
  });

  it("a generic word names the one service that has it; a checkup is an exam", async () => {
    expect((await ask("how much do you charge for a consultation", { profile })).text).toMatch(/\$150/);
    expect((await ask("how much is a checkup for my dog", { profile })).text).toMatch(/\$65/);
  });

  it("a policy question that names an appointment is answered with the policy", async () => {
    expect((await ask("what happens if i'm running late to my appointment", { profile })).text).toMatch(/15 minutes/);
    expect((await ask("quick question, is there a fee if i cancel my appointment last minute?", { profile })).text).toMatch(/24 hours/);
  });
});

describe("a service named by the beginning of its word (issue 27)", () => {
  it("\"vaccines\" is the Vaccination service", async () => {
    const profile: ReplyInput["profile"] = { name: "Saguaro Animal Hospital", serviceDetails: [{ name: "Vaccination", price: "$35" }, { name: "Wellness Exam", price: "$65" }] };
    expect((await ask("do you guys do vaccines for cats", { profile })).text).toMatch(/Vaccination/);
  });
});

describe("a Spanish caller's questions about the business (issue 27)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Marigold Trattoria",
    address: "214 Mulberry St, New York, NY 10012",
    serviceDetails: [{ name: "Dinner Reservation" }, { name: "Private Dining Room", price: "minimum spend from $1,500" }],
    weeklyHours: [
      { day: "Monday", hours: "closed" },
      { day: "Sunday", hours: "4 PM–9 PM" },
    ],
    nextDays: [
      { date: "2026-12-03", weekday: "Thursday", label: "today", hours: "5 PM–10 PM" },
      { date: "2026-12-06", weekday: "Sunday", label: "Sunday", hours: "4 PM–9 PM" },
      { date: "2026-12-07", weekday: "Monday", label: "Monday", hours: "closed" },
    ],
  };

  it("hours of a day named, in Spanish", async () => {
    expect((await ask("hola, ¿a qué hora abren el domingo?", { profile })).text).toBe("El domingo abrimos de 4 PM a 9 PM. ¿Puedo ayudarle con algo más?");
    expect((await ask("¿están abiertos el lunes?", { profile })).text).toMatch(/^El lunes estamos cerrados/);
  });

  it("the address, and a price it does not have said so in Spanish (a knowledge gap)", async () => {
    expect((await ask("¿dónde están ubicados?", { profile })).text).toMatch(/^Estamos en 214 Mulberry St/);
    const price = await ask("¿cuánto cuesta una cena de cumpleaños?", { profile });
    expect(price.text).toMatch(/no voy a adivinar/);
    expect(price.knowledgeGap).toBeDefined();
  });

  it("an English question is not answered in Spanish", async () => {
    expect((await ask("what are your hours on sunday?", { profile })).text).not.toMatch(/abrimos/);
  });
});

describe("which questions are Spanish (issue 27)", () => {
  it("tells a Spanish question from an English one", async () => {
    const { looksSpanish } = await import("./knowledge-es");
    expect(looksSpanish("hola, ¿a qué hora abren el domingo?")).toBe(true);
    expect(looksSpanish("cuánto cuesta una limpieza")).toBe(true);
    expect(looksSpanish("what time do you open on sunday?")).toBe(false);
    expect(looksSpanish("is la cantina open?")).toBe(false);
  });
});

describe("a service a Spanish caller names in Spanish, priced from the business's English names (gen2)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Saguaro Animal Hospital",
    serviceDetails: [
      { name: "Wellness Exam", price: "$65" },
      { name: "Vaccination", price: "$35" },
      { name: "Initial Assessment", price: "$140" },
      { name: "Oil Change", price: "$59.99" },
    ],
  };

  it("\"vacunar\", \"la evaluación inicial\" and \"un cambio de aceite\" name their services", async () => {
    expect((await ask("buenas tardes, ¿cuánto cuesta vacunar a mi perro?", { profile })).text).toMatch(/^Vaccination: \$35/);
    expect((await ask("hola, ¿cuánto cuesta la evaluación inicial?", { profile })).text).toMatch(/^Initial Assessment: \$140/);
    expect((await ask("¿cuánto cobran por un cambio de aceite?", { profile })).text).toMatch(/^Oil Change: \$59\.99/);
  });
});

describe("a bare thanks mid-call (gen2)", () => {
  it("is welcomed in the caller's language, never answered with the assistant's introduction", async () => {
    expect((await ask("gracias")).text).toBe("¡De nada! ¿Puedo ayudarle con algo más?");
    expect((await ask("ok thanks so much")).text).toBe("You're welcome! Is there anything else I can help you with?");
    expect((await ask("thanks, what are your hours on sunday?")).text).not.toMatch(/welcome/);
  });
});

describe("a question the business's knowledge does not answer, asked in Spanish", () => {
  it("is said to be a gap in Spanish, and noted", async () => {
    const reply = await ask("¿ustedes tienen estacionamiento para bicicletas?");
    expect(reply.knowledgeGap).toBeTruthy();
    expect(reply.text).toMatch(/^No tengo esa información a mano/);
    const english = await ask("do you have bike parking?");
    expect(english.text).not.toMatch(/No tengo/);
  });
});

describe("a hello", () => {
  const afterGreeting = { history: [{ role: "assistant" as const, content: "Thanks for calling Harbor Dental. This is Riley. How can I help you today?" }] };
  it("is never \"hello again\" when the caller has not spoken before", async () => {
    expect((await ask("hello", afterGreeting)).text).toBe("Hello! How can I help you today?");
    expect((await ask("hello", { history: [...afterGreeting.history, { role: "user" as const, content: "hi" }, { role: "assistant" as const, content: "Hello! How can I help you today?" }] })).text).toBe("Hello again! How else can I help you?");
  });

  it("with more said after it is answered as what it says", async () => {
    expect((await ask("hi, I've got kind of an odd one about my neighbor's fence", afterGreeting)).text).not.toMatch(/^Hello/);
  });
});

describe("a confirmation after \"anything else?\" (gen3)", () => {
  it("is taken as said and the question stands, in the caller's language — never the offer to take a message again", async () => {
    const afterEs = { history: [{ role: "assistant" as const, content: "Gracias, Irene Paz. He anotado su mensaje para el equipo y le devolverán la llamada al 3 1 2, 5 5 5, 3 4 1 8. ¿Puedo ayudarle con algo más?" }] };
    expect((await ask("sí, es correcto", afterEs)).text).toBe("Muy bien. ¿Hay algo más en que pueda ayudarle?");
    expect((await ask("a este número", afterEs)).text).toBe("Muy bien. ¿Hay algo más en que pueda ayudarle?");
    const afterEn = { history: [{ role: "assistant" as const, content: "Thanks, Sam. I've noted your message and they'll call you back. Is there anything else I can help you with?" }] };
    expect((await ask("yes, that's right", afterEn)).text).toBe("Great. Is there anything else I can help you with?");
    // A real question after it is answered as one.
    expect((await ask("what are your hours on sunday?", afterEn)).text).not.toMatch(/^Great\./);
  });
});

describe("an FAQ asked inside a longer question (gen2)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Lone Star Heating & Air",
    serviceDetails: [{ name: "AC Tune-Up", price: "$129" }],
    faqs: [{ question: "Do you offer financing?", answer: "Yes, new systems can be financed over 12 to 60 months with approved credit." }],
  };
  it("\"do you guys do financing or do I pay up front?\" gets the financing answer, not a service pitch", async () => {
    expect((await ask("hey, if i need a whole new ac unit, do you guys do financing or do i gotta pay it all up front?", { profile })).text).toMatch(/financed over 12 to 60 months/);
  });
});

describe("two questions in one breath (gen2)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Eastside Physio & Rehab",
    serviceDetails: [{ name: "Initial Assessment", price: "$140" }, { name: "Follow-up Session", price: "$95" }],
    weeklyHours: [{ day: "Saturday", hours: "8 AM–12 PM" }],
    nextDays: [{ date: "2026-12-05", weekday: "Saturday", label: "Saturday", hours: "8 AM–12 PM" }],
  };
  it("a price and the Saturday hours are both answered, with one closer", async () => {
    const reply = (await ask("how much is an initial assessment, and are you guys open on saturdays?", { profile })).text;
    expect(reply).toMatch(/\$140/);
    expect(reply).toMatch(/8 AM/);
    expect(reply.match(/anything else/gi)).toHaveLength(1);
  });
  it("one question with an \"and\" inside stays one answer", async () => {
    expect((await ask("how much is an initial assessment and a follow-up session?", { profile })).text).toMatch(/\$140|\$95/);
  });
});

describe("a price of $0 (gen2)", () => {
  const profile: ReplyInput["profile"] = { name: "Mile High Auto Care", serviceDetails: [{ name: "Brake Inspection", price: "$0", duration: "1 hour" }] };
  it("is said as free, in either language", async () => {
    const en = (await ask("how much do you charge to look at the brakes?", { profile })).text;
    expect(en).toMatch(/free/);
    expect(en).not.toMatch(/\$0/);
    expect((await ask("¿cuánto cobran por revisar los frenos?", { profile })).text).toMatch(/gratis/);
  });
});

describe("an FAQ whose subject the business implies, or with one word unsaid (gen3)", () => {
  const profile: ReplyInput["profile"] = {
    name: "Rainier Paws Grooming",
    serviceDetails: [{ name: "Bath & Brush", price: "$55" }, { name: "Full Groom", price: "from $85" }],
    faqs: [
      { question: "Do you groom cats?", answer: "No, we groom dogs only." },
      { question: "What vaccines does my dog need?", answer: "We need proof of current rabies and bordetella vaccines." },
      { question: "Do you bring your own supplies?", answer: "Yes, our crews bring all supplies." },
    ],
  };
  it("\"do you guys do cats?\" at a groomer is \"Do you groom cats?\"", async () => {
    expect((await ask("hi, do you guys do cats? my persian is super matted", { profile })).text).toMatch(/dogs only/);
  });
  it("\"what shots does he need\" is the vaccines question", async () => {
    expect((await ask("first time bringing my dog in, what shots does he need to have?", { profile })).text).toMatch(/rabies/);
  });
  it("\"do your people bring everything … my own stuff\" is the supplies question", async () => {
    expect((await ask("do i need my own cleaning stuff or do your people bring everything?", { profile })).text).toMatch(/bring all supplies/);
  });
});
