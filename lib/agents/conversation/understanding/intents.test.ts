import { en } from "./corpus/en";
import { es } from "./corpus/es";
import { DEV_PEOPLE, DEV_SERVICES, devTurns } from "./fixtures/dev";
import { heldOutEnglish, heldOutSpanish } from "./fixtures/held-out";
import { understand, warmUp } from "./understand";
import type { CallerIntent, UnderstandingContext } from "./types";

const ctx: UnderstandingContext = {
  now: new Date("2026-11-26T18:00:00Z"),
  timeZone: "America/Chicago",
  services: ["Haircut", "Hair Color", "Teeth Cleaning", "Drain Cleaning"],
  people: ["Dr. Chen", "Maria Lopez (hygienist)"],
};

beforeAll(async () => {
  await warmUp();
});

describe("the corpus", () => {
  const intents = Object.keys(en) as CallerIntent[];

  test("has many phrasings per intent in both languages", () => {
    for (const intent of intents) {
      expect([intent, en[intent]!.length >= 25]).toEqual([intent, true]);
      expect([intent, (es[intent]?.length ?? 0) >= 15]).toEqual([intent, true]);
    }
  });

  test("holds none of the held-out phrasings", () => {
    const trained = new Set([...Object.values(en), ...Object.values(es)].flat().map((text) => text.toLowerCase()));
    const leaked = [...Object.values(heldOutEnglish), ...Object.values(heldOutSpanish)].flat().filter((text) => trained.has(text.toLowerCase()));
    expect(leaked).toEqual([]);
  });
});

async function accuracy(heldOut: Partial<Record<CallerIntent, string[]>>, language: "en" | "es") {
  const misses: string[] = [];
  let total = 0;
  for (const [intent, phrasings] of Object.entries(heldOut)) {
    for (const text of phrasings ?? []) {
      total += 1;
      const result = await understand(text, { ...ctx, language: language === "es" ? "es" : undefined });
      if (result.intent !== intent) misses.push(`${intent} ← "${text}" (got ${result.intent} ${result.confidence.toFixed(2)})`);
    }
  }
  return { rate: (total - misses.length) / total, total, misses };
}

describe("held-out phrasings (never trained on)", () => {
  test("English: at least 8 per intent, at least 90 % right", async () => {
    for (const phrasings of Object.values(heldOutEnglish)) expect(phrasings!.length).toBeGreaterThanOrEqual(8);
    const { rate, total, misses } = await accuracy(heldOutEnglish, "en");
    console.log(`held-out English: ${(rate * 100).toFixed(1)} % of ${total}${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`);
    expect(rate).toBeGreaterThanOrEqual(0.9);
  });

  test("Spanish: at least 4 per intent, at least 90 % right", async () => {
    for (const phrasings of Object.values(heldOutSpanish)) expect(phrasings!.length).toBeGreaterThanOrEqual(4);
    const { rate, total, misses } = await accuracy(heldOutSpanish, "es");
    console.log(`held-out Spanish: ${(rate * 100).toFixed(1)} % of ${total}${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`);
    expect(rate).toBeGreaterThanOrEqual(0.9);
  });
});

test("whole turns from six kinds of business (the tuning set, fixtures/dev.ts): at least 95 % right", async () => {
  const misses: string[] = [];
  for (const [text, right] of devTurns) {
    const result = await understand(text, { ...ctx, services: DEV_SERVICES, people: DEV_PEOPLE });
    if (!right.includes(result.intent)) misses.push(`"${text}" → ${result.intent} (want ${right.join(" or ")})`);
  }
  const rate = (devTurns.length - misses.length) / devTurns.length;
  console.log(`dev turns: ${(rate * 100).toFixed(1)} % of ${devTurns.length}${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`);
  expect(rate).toBeGreaterThanOrEqual(0.95);
});

describe("the callers issue 27 names", () => {
  test.each([
    ["Give me a call back", "callback"],
    ["is Dr. Chen in?", "person"],
    ["move it to Thursday", "reschedule"],
    ["can I get a color", "book"],
    ["delete everything you have on me", "forget_me"],
    ["put me through to the dentist", "person"],
    ["my tooth is bleeding and it won't stop", "emergency"],
    ["a pipe burst in the garage", "emergency"],
    ["the laundry room is flooding", "emergency"],
    ["I smell gas near the stove", "emergency"],
    ["we can lower your merchant rates today", "spam"],
    ["I'm calling about the warranty on your vehicle", "spam"],
    ["we can boost your SEO and get you to the top of Google", "spam"],
    ["are you a robot?", "robot"],
    ["am I talking to a real person?", "robot"],
    ["stop texting me", "opt_out"],
    ["take me off your list", "opt_out"],
    ["don't call me again", "opt_out"],
    ["I want a real human", "person"],
    ["Bye", "goodbye"],
    ["wait, what?", "repeat"],
  ] as [string, CallerIntent][])("%s → %s", async (text, intent) => {
    expect((await understand(text, ctx)).intent).toBe(intent);
  });

  test("anything for a haircut tomorrow morning? asks to book, names the service and the day", async () => {
    const result = await understand("anything for a haircut tomorrow morning?", ctx);
    expect(["book", "availability"]).toContain(result.intent);
    expect(result.service?.name).toBe("Haircut");
    expect(result.when).toMatchObject({ date: "2026-11-27", partOfDay: "morning" });
  });

  test("the person asked for is named from the business's list", async () => {
    expect((await understand("is Dr. Chen in?", ctx)).person).toBe("Dr. Chen");
    expect((await understand("put me through to the dentist", ctx)).person).toBe("Dr. Chen");
  });

  test("can I get a color names the service", async () => {
    expect((await understand("can I get a color", ctx)).service?.name).toBe("Hair Color");
  });

  test("a service named in a question about hours or the address is not a price question", async () => {
    expect((await understand("what time are you open for haircuts on saturday", ctx)).intent).toBe("hours");
    expect((await understand("where do I go for my teeth cleaning", ctx)).intent).toBe("address");
    expect((await understand("are you open sunday for a drain cleaning", ctx)).intent).toBe("hours");
  });

  test("move it to Thursday, same time keeps the time", async () => {
    const result = await understand("move it to Thursday, same time", ctx);
    expect(result.intent).toBe("reschedule");
    expect(result.when).toMatchObject({ date: "2026-12-03", sameTime: true });
  });
});

describe("what the assistant is expecting", () => {
  test("a bare yes or no answers a yes/no question", async () => {
    for (const text of ["yes", "yeah sure", "sí", "that's right", "ok"]) {
      const result = await understand(text, { ...ctx, expecting: "yes_no" });
      expect([text, result.intent, result.answers]).toEqual([text, "yes", "yes_no"]);
    }
    const no = await understand("no", { ...ctx, expecting: "yes_no" });
    expect([no.intent, no.answers]).toEqual(["no", "yes_no"]);
  });

  test("a Spanish yes with more after it is still a yes", async () => {
    const result = await understand("sí, a las tres está bien", { ...ctx, language: "es", expecting: "yes_no" });
    expect([result.intent, result.answers]).toEqual(["yes", "yes_no"]);
    expect(result.when).toMatchObject({ time: "15:00" });
    const withName = await understand("sí, mi número es cinco cinco cinco", { ...ctx, language: "es", expecting: "yes_no" });
    expect([withName.intent, withName.answers]).toEqual(["yes", "yes_no"]);
    const wrong = await understand("no, el sábado a las once", { ...ctx, language: "es", expecting: "yes_no" });
    expect([wrong.intent, wrong.answers]).toEqual(["no", "yes_no"]);
    expect(wrong.when).toMatchObject({ date: "2026-11-28", time: "11:00" });
  });

  test("a bare day or time answers when", async () => {
    const result = await understand("Tuesday at 3", { ...ctx, expecting: "when" });
    expect(result.answers).toBe("when");
    expect(result.when).toMatchObject({ date: "2026-12-01", time: "15:00" });
  });

  test("digits answer a phone question", async () => {
    const result = await understand("four one five five five five oh one oh oh", { ...ctx, expecting: "phone" });
    expect(result.answers).toBe("phone");
    expect(result.phone).toBe("+14155550100");
    expect(result.when).toBeUndefined();
  });

  test("a bare name answers a name question", async () => {
    const result = await understand("tom baker", { ...ctx, expecting: "name" });
    expect(result.answers).toBe("name");
    expect(result.name).toBe("Tom Baker");
  });

  test.each([
    ["can I talk to a person", "person"],
    ["I want a real human", "person"],
    ["bye", "goodbye"],
    ["wait, what?", "repeat"],
  ] as [string, CallerIntent][])("%s leaves any flow", async (text, intent) => {
    for (const expecting of ["yes_no", "when", "name", "phone", "service", "message"] as const) {
      const result = await understand(text, { ...ctx, expecting });
      expect([expecting, result.intent, result.answers]).toEqual([expecting, intent, undefined]);
    }
  });
});

describe("what a bag of words cannot see", () => {
  test("a caller who says it is not urgent is not an emergency", async () => {
    const result = await understand("so my toilet won't stop running, not urgent, can someone come next week", ctx);
    expect(result.intent).not.toBe("emergency");
    expect((await understand("my toilet won't stop running and the floor is flooding", ctx)).intent).toBe("emergency");
  });

  test("a customer asking about an invoice is not a robocall; a robocall is", async () => {
    expect((await understand("i'm calling about an invoice you sent", ctx)).intent).not.toBe("spam");
    expect((await understand("i have a question about my bill", ctx)).intent).not.toBe("spam");
    expect((await understand("hi this is rachel from card services about your merchant account", ctx)).intent).toBe("spam");
  });

  test("is <someone on the staff> available asks for the person, not for a slot", async () => {
    const result = await understand("is Maria available?", ctx);
    expect(result).toMatchObject({ intent: "person", person: "Maria Lopez (hygienist)" });
  });

  test("an answer is not taken for a complaint, a message or a cancellation that rides along with it", async () => {
    const result = await understand("the Tuesday after next works, around 3", { ...ctx, expecting: "when" });
    expect(result.answers).toBe("when");
    expect(result.when).toMatchObject({ date: "2026-12-08", time: "15:00" });
  });

  test("a person asked for still wins over a day said in the same breath", async () => {
    const result = await understand("no, I want to talk to a person", { ...ctx, expecting: "yes_no" });
    expect(result.intent).toBe("person");
    expect(result.answers).toBeUndefined();
  });
});

describe("Spanish callers", () => {
  test("are understood in Spanish", async () => {
    const booking = await understand("quiero una cita para el martes a las tres de la tarde", ctx);
    expect(booking).toMatchObject({ language: "es", intent: "book", when: { date: "2026-12-01", time: "15:00" } });
    const name = await understand("me llamo Ana López", ctx);
    expect(name).toMatchObject({ language: "es", name: "Ana López" });
    expect(name.person).toBeUndefined();
  });
});

test("the ranked list is best first and scores are 0..1", async () => {
  const result = await understand("can someone call me back", ctx);
  expect(result.intents[0].intent).toBe(result.intent);
  for (let i = 1; i < result.intents.length; i++) expect(result.intents[i - 1].score).toBeGreaterThanOrEqual(result.intents[i].score);
  expect(result.confidence).toBeGreaterThan(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
});

describe("a greeting that opens a question (issue 27)", () => {
  test("\"hello? is this a recording?\" is the question; a greeting alone stays a greeting", async () => {
    expect((await understand("hello? is this a recording?", ctx)).intent).toBe("robot");
    expect((await understand("hi there, good morning", ctx)).intent).toBe("greeting");
  });
});

describe("danger said in so many words (issue 27)", () => {
  test("a gas smell is an emergency in either language, whatever else is said; a table for four at 8 PM is not", async () => {
    expect((await understand("oiga, huele mucho a gas en mi casa cerca del calentador, ¿qué hago?", ctx)).intent).toBe("emergency");
    expect((await understand("i think i smell gas near the water heater", ctx)).intent).toBe("emergency");
    expect((await understand("our carbon monoxide detector keeps going off near the furnace, what do i do", ctx)).intent).toBe("emergency");
    expect((await understand("Hola, ¿tienen mesa para cuatro el sábado a las 8 de la noche? A nombre de Morales", ctx)).intent).not.toBe("emergency");
  });

  test("no heat with a baby in the house, or a dog that ate chocolate, is an emergency; a heater to look at next week is not (gen3)", async () => {
    expect((await understand("the heat stopped working and it's getting cold, we have a newborn, can someone come tonight?", ctx)).intent).toBe("emergency");
    expect((await understand("he ate half a bag of raisins and he's drooling, this is kim", ctx)).intent).toBe("emergency");
    expect((await understand("my heater stopped working, can someone come look at it next week", ctx)).intent).not.toBe("emergency");
  });
});
