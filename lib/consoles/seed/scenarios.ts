/**
 * What callers of a dental studio talk about. The seed builds calls, texts and assistant replies
 * from these, so call history, summaries and analytics have something true to the product to show.
 */
export type Scenario = {
  intent: string;
  sentiment: "positive" | "neutral" | "negative";
  caller: string[];
  assistant: string[];
  summary: string;
  text?: { inbound: string; outbound: string };
};

export const scenarios: Scenario[] = [
  {
    intent: "appointment",
    sentiment: "positive",
    caller: ["Hi, I'd like to book a cleaning for next week.", "Tuesday afternoon works best for me."],
    assistant: [
      "Happy to help you book a cleaning. Which day suits you?",
      "I have Tuesday at 2:30 PM open. Shall I reserve it under your name?",
      "You're all set for Tuesday at 2:30 PM. You'll get a text reminder the day before.",
    ],
    summary: "Caller booked a routine cleaning for Tuesday 2:30 PM; reminder text scheduled.",
    text: { inbound: "Can I move my cleaning to Thursday?", outbound: "Done! Your cleaning is now Thursday at 10:00 AM." },
  },
  {
    intent: "hours",
    sentiment: "neutral",
    caller: ["What time are you open on Saturdays?"],
    assistant: ["We're open Saturdays from 9 AM to 1 PM. Is there anything else I can help with?"],
    summary: "Caller asked about Saturday opening hours; answered 9 AM to 1 PM.",
    text: { inbound: "Are you open Saturday?", outbound: "Yes, Saturdays 9 AM to 1 PM." },
  },
  {
    intent: "pricing",
    sentiment: "neutral",
    caller: ["How much is teeth whitening?", "Does insurance cover any of it?"],
    assistant: [
      "In-office whitening starts at $350. I can have our coordinator send you the full price list.",
      "Whitening is usually cosmetic, so most plans don't cover it. The coordinator can check yours.",
    ],
    summary: "Caller asked whitening price and insurance coverage; coordinator to follow up with price list.",
  },
  {
    intent: "complaint",
    sentiment: "negative",
    caller: ["I was charged twice for my last visit and nobody called me back."],
    assistant: [
      "I'm sorry about that. I've flagged the double charge for our billing team as urgent.",
      "Someone from billing will call you back today before 5 PM.",
    ],
    summary: "Caller reports a double charge and no callback; escalated to billing for a same-day call.",
    text: { inbound: "Still waiting on the refund for the double charge", outbound: "Sorry for the wait. Billing will call you today." },
  },
  {
    intent: "human_handoff",
    sentiment: "neutral",
    caller: ["Can I speak to Dr. Patel directly?"],
    assistant: ["Dr. Patel is with a patient. I'll take a message and she'll call you back between appointments."],
    summary: "Caller asked for Dr. Patel; message taken for a callback.",
  },
  {
    intent: "order",
    sentiment: "positive",
    caller: ["Is my night guard ready for pickup?"],
    assistant: ["Your night guard arrived from the lab yesterday. You can pick it up any time during opening hours."],
    summary: "Caller checked on a night guard order; it is ready for pickup.",
    text: { inbound: "Is my night guard in?", outbound: "Yes, it's ready for pickup at the front desk." },
  },
];

export const spamCallers = [
  { summary: "Robocall offering an extended car warranty; flagged as spam.", line: "This is your final notice about your vehicle's warranty." },
  { summary: "Unsolicited search-ranking sales pitch; flagged as spam.", line: "We can put your business at the top of search results today." },
];

/** The demo's regular callers: each has one number of their own (lib/consoles/seed/callers.ts). */
export const callerNames = [
  "Maria Gomez",
  "James Carter",
  "Priya Shah",
  "Tom Nguyen",
  "Olivia Brown",
  "Sam Wilson",
  "Lena Fischer",
  "Noah Kim",
  "Grace Okafor",
  "Daniel Reyes",
  "Hannah Lee",
  "Marcus Bell",
] as const;
