import type { BusinessProfile } from "@/db/schema/organizations";

/**
 * Harbor Dental Studio's business profile for the demo: structured weekly hours, the year's
 * remaining US holidays (computed from the seed's clock, so they are always upcoming), services
 * with durations and prices, policies and FAQs — what the demo assistant answers from.
 */
const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** The fourth Thursday of November. */
function thanksgiving(year: number): string {
  const firstWeekday = new Date(Date.UTC(year, 10, 1)).getUTCDay(); // 0 Sunday … 4 Thursday
  const firstThursday = 1 + ((4 - firstWeekday + 7) % 7);
  return iso(year, 11, firstThursday + 21);
}

/** The next occurrence (today or later) of each holiday the studio closes for. */
export function upcomingHolidays(now: Date): NonNullable<BusinessProfile["holidays"]> {
  const today = now.toISOString().slice(0, 10);
  const year = now.getUTCFullYear();
  const next = (make: (y: number) => string) => (make(year) >= today ? make(year) : make(year + 1));
  return [
    { date: next(thanksgiving), name: "Thanksgiving" },
    { date: next((y) => iso(y, 12, 24)), name: "Christmas Eve", hours: [{ open: "08:00", close: "12:00" }] },
    { date: next((y) => iso(y, 12, 25)), name: "Christmas Day" },
    { date: next((y) => iso(y, 1, 1)), name: "New Year's Day" },
    { date: next((y) => iso(y, 7, 4)), name: "Independence Day" },
  ].sort((a, b) => a.date.localeCompare(b.date));
}

const weekday = [{ open: "08:00", close: "18:00" }];

export function demoBusinessProfile(now: Date): BusinessProfile {
  return {
    timezone: "America/Los_Angeles",
    address: "214 Harbor Street, Portland, OR 97201",
    phone: "+1 503 555 0142",
    website: "https://harbordental.example/",
    currency: "USD",
    weeklyHours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ open: "09:00", close: "13:00" }] },
    holidays: upcomingHolidays(now),
    policies: [
      {
        title: "Cancellations",
        text: "Please give us 24 hours' notice to cancel or move an appointment. Late cancellations and missed appointments are charged $50.",
      },
      {
        title: "Insurance and payment",
        text: "We accept most PPO dental plans and bill them directly, plus cash and all major cards. Whitening is cosmetic, so most plans do not cover it.",
      },
      { title: "Late arrivals", text: "If you arrive more than 15 minutes late, we may need to shorten or reschedule your visit." },
    ],
    faqs: [
      { question: "Do you have parking?", answer: "Yes, free parking behind the building on Harbor Lane, and two accessible spaces by the entrance." },
      { question: "Are you taking new patients?", answer: "Yes, we welcome new patients. Your first visit includes a full exam and X-rays." },
      { question: "Do you see children?", answer: "Yes, we see children from age three." },
      {
        question: "What should I do in a dental emergency?",
        answer: "Call the main line and say it's an emergency: we keep emergency visits open every weekday. After hours, the after-hours line takes your details and the on-call dentist calls back.",
      },
    ],
  };
}

export const demoServices = [
  { name: "Cleaning and exam", description: "Cleaning, polish and a check-up with the dentist.", durationMinutes: 60, priceCents: 12000, priceText: null },
  { name: "Teeth whitening", description: "In-office whitening in one visit.", durationMinutes: 90, priceCents: null, priceText: "from $350" },
  { name: "Filling", description: "Tooth-coloured composite filling.", durationMinutes: 45, priceCents: null, priceText: "from $150" },
  { name: "Night guard", description: "Custom night guard: impressions now, fitting when it is back from the lab.", durationMinutes: 30, priceCents: 45000, priceText: null },
  { name: "Emergency visit", description: "Same-day exam for pain, swelling or a broken tooth.", durationMinutes: 30, priceCents: 9500, priceText: null },
];

/** What demo callers asked that the profile does not answer (logged as knowledge gaps with their calls). */
export const unansweredQuestions = [
  {
    question: "Do you offer Invisalign?",
    times: 3,
    reply: "I don't see that among our services, and I won't guess. I've noted your question for the team, and someone will follow up.",
  },
  {
    question: "Do you do root canals?",
    times: 2,
    reply: "I don't see that among our services, and I won't guess. I've noted your question for the team, and someone will follow up.",
  },
  {
    question: "Do you offer sedation for anxious patients?",
    times: 1,
    reply: "I don't have that information on hand, so I won't guess. I've noted your question for the team at Harbor Dental Studio, and someone will follow up with you.",
  },
];
