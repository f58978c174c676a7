/**
 * The business's knowledge rendered for the assistant (at a fixed clock, in the business's time
 * zone) and the local responder answering from it: hours per day and "open now", holidays, prices
 * and durations, policies, FAQs — and, for anything else, an honest "I don't know" that flags a
 * knowledge gap instead of a guess.
 */
import type { BusinessProfile } from "@/db/schema/organizations";
import type { ReplyInput } from "@/lib/platform/providers/llm/interface";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { renderKnowledge, type KnowledgeServiceRow } from "./knowledge";

const weekday = [{ open: "08:00", close: "18:00" }];
const profile: BusinessProfile = {
  timezone: "America/Los_Angeles",
  address: "214 Harbor Street, Portland, OR 97201",
  phone: "+1 503 555 0142",
  weeklyHours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ open: "09:00", close: "13:00" }] },
  holidays: [
    { date: "2026-11-26", name: "Thanksgiving" },
    { date: "2026-12-24", name: "Christmas Eve", hours: [{ open: "08:00", close: "12:00" }] },
  ],
  policies: [
    { title: "Cancellation policy", text: "Please give us 24 hours' notice to cancel or move an appointment; late cancellations are charged $50." },
    { title: "Payment", text: "We accept cash, all major cards and most PPO insurance plans." },
  ],
  faqs: [
    { question: "Do you have parking?", answer: "Yes, free parking behind the building on Harbor Lane." },
    { question: "Do you see children?", answer: "Yes, we see children from age 3." },
  ],
};

const service = (name: string, durationMinutes: number, priceCents: number | null, priceText: string | null = null): KnowledgeServiceRow => ({
  name,
  description: "",
  durationMinutes,
  priceCents,
  priceText,
  bookable: true,
  isActive: true,
});
const services = [
  service("Cleaning", 60, 12000),
  service("Teeth whitening", 90, 35000),
  service("Night guard", 30, null, "from $300"),
  service("Emergency visit", 45, null),
  { ...service("Retired service", 30, 100), isActive: false },
];

const tuesdayAfternoon = new Date("2026-11-24T23:05:00Z"); // Tuesday 3:05 PM in Portland
const info = renderKnowledge("Harbor Dental Studio", profile, services, tuesdayAfternoon);
const llm = createLocalResponder();
const base: ReplyInput = {
  assistant: { name: "Front Desk", personality: "friendly", instructions: "Greet callers warmly.", greeting: "Thanks for calling Harbor Dental Studio!" },
  profile: info,
  history: [],
  text: "",
};
const ask = (text: string, extra: Partial<ReplyInput> = {}) => llm.generateReply({ ...base, ...extra, text });

describe("rendered knowledge", () => {
  it("reads hours, open now, the next days and holidays in the business's time zone", () => {
    expect(info.hours).toBe("Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed");
    expect(info.now).toEqual({ date: "2026-11-24", weekday: "Tuesday", time: "3:05 PM", openNow: true, status: "We're open right now, until 6 PM." });
    expect(info.nextDays?.map((d) => `${d.label} ${d.hours}${d.note ? ` ${d.note}` : ""}`)).toEqual([
      "today 8 AM–6 PM",
      "tomorrow 8 AM–6 PM",
      "Thursday closed Thanksgiving",
      "Friday 8 AM–6 PM",
      "Saturday 9 AM–1 PM",
      "Sunday closed",
      "Monday 8 AM–6 PM",
    ]);
    expect(info.specialDays?.map((d) => d.date)).toEqual(["2026-11-26", "2026-12-24"]);
  });

  it("lists active services with durations and prices in the business's currency", () => {
    expect(info.serviceDetails).toEqual([
      { name: "Cleaning", duration: "1 hour", price: "$120", bookable: true },
      { name: "Teeth whitening", duration: "1 hour 30 minutes", price: "$350", bookable: true },
      { name: "Night guard", duration: "30 minutes", price: "from $300", bookable: true },
      { name: "Emergency visit", duration: "45 minutes", bookable: true },
    ]);
    expect(renderKnowledge("X", { currency: "EUR" }, [service("Massage", 60, 7550)], tuesdayAfternoon).serviceDetails?.[0].price).toBe("€75.50");
  });

  it("reads the clock at the turn: closed in the evening, opening tomorrow", () => {
    const evening = renderKnowledge("Harbor Dental Studio", profile, services, new Date("2026-11-25T05:00:00Z"));
    expect(evening.now?.status).toBe("We're closed right now; we open tomorrow at 8 AM.");
  });
});

describe("the local responder answers from knowledge", () => {
  it("says whether it is open now", async () => {
    const reply = await ask("Are you open right now?");
    expect(reply).toEqual({ text: expect.stringMatching(/^We're open right now, until 6 PM\./), intent: "hours" });
  });

  it("answers for a named day, holidays applied", async () => {
    expect((await ask("Are you open on Thursday?")).text).toMatch(/^On Thursday we're closed for Thanksgiving\./);
    expect((await ask("What time do you open tomorrow?")).text).toMatch(/^Tomorrow, Wednesday, we're open 8 AM–6 PM\./);
    expect((await ask("Are you open this weekend?")).text).toMatch(/^On Saturday we're open 9 AM–1 PM\. On Sunday we're closed\./);
    expect((await ask("What are your hours on Christmas Eve?")).text).toMatch(/we're open 8 AM–12 PM \(Christmas Eve hours\)/);
  });

  it("gives the week's hours for a general question", async () => {
    const reply = await ask("What are your opening hours?");
    expect(reply.text).toContain("Our hours are Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed.");
    expect(reply.knowledgeGap).toBeUndefined();
  });

  it("quotes only the prices the business entered", async () => {
    expect((await ask("How much is a cleaning?")).text).toMatch(/^Cleaning is \$120 and takes about 1 hour\./);
    expect((await ask("What does teeth whitening cost?")).text).toMatch(/^Teeth whitening is \$350/);
    expect((await ask("How much for a night guard?")).text).toMatch(/^Night guard is from \$300/);
    const unknown = await ask("How much is an emergency visit?");
    expect(unknown.text).toMatch(/don't have the price of Emergency visit on hand, so I won't guess/);
    expect(unknown.text).not.toMatch(/\$|\d/);
    expect(unknown.knowledgeGap).toEqual({ question: "How much is an emergency visit?" });
    const list = await ask("What are your prices?");
    expect(list.text).toMatch(/Cleaning \$120, Teeth whitening \$350 and Night guard from \$300/);
  });

  it("answers from policies and FAQs in the owner's words", async () => {
    expect((await ask("What's your cancellation policy?")).text).toMatch(/^Please give us 24 hours' notice to cancel/);
    expect((await ask("Do you take insurance?")).text).toMatch(/most PPO insurance plans/);
    expect((await ask("Is there parking?")).text).toMatch(/^Yes, free parking behind the building/);
    expect((await ask("Can I bring my kids?")).text).toMatch(/children from age 3/);
  });

  it("answers services, address and phone", async () => {
    expect((await ask("Do you do teeth whitening?")).text).toMatch(/^Yes, we offer Teeth whitening\. It takes about 1 hour 30 minutes and costs \$350\./);
    expect((await ask("Where are you located?")).text).toMatch(/^We're at 214 Harbor Street, Portland, OR 97201\./);
    expect((await ask("What services do you offer?")).text).toMatch(/we offer Cleaning, Teeth whitening, Night guard and Emergency visit/);
  });

  it("does not guess what it does not know: it says so and flags a knowledge gap", async () => {
    for (const text of ["Do you offer Invisalign?", "Is there a pharmacy nearby?", "Are you open on New Year's Day?", "Do you accept Delta Dental?"]) {
      const reply = await ask(text);
      expect(reply.knowledgeGap).toEqual({ question: text });
      expect(reply.text).toMatch(/won't guess/);
      expect(reply.text).not.toMatch(/\$/);
    }
  });

  it("flags no gap for greetings, bookings, hand-offs, small talk or plain statements", async () => {
    for (const text of ["Hello", "Hello?", "Are you there?", "Can you hear me?", "Are you a robot?", "I'd like to book a cleaning", "Can I speak to a person?", "Thanks, bye"]) {
      expect((await ask(text)).knowledgeGap).toBeUndefined();
    }
    expect((await ask("Is this Harbor Dental?")).text).toMatch(/^Yes, you've reached Harbor Dental Studio\./);
  });

  it("uses an FAQ added later (an answered knowledge gap) on the next turn", async () => {
    const before = await ask("Do you offer Invisalign?");
    expect(before.knowledgeGap).toBeDefined();
    const withAnswer = { ...info, faqs: [...(info.faqs ?? []), { question: "Do you offer Invisalign?", answer: "Yes, Dr. Chen offers Invisalign; the first consultation is free." }] };
    const after = await ask("Do you offer invisalign?", { profile: withAnswer });
    expect(after.text).toMatch(/^Yes, Dr\. Chen offers Invisalign/);
    expect(after.knowledgeGap).toBeUndefined();
  });
});
