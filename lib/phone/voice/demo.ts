import type { BusinessProfile } from "@/db/schema/organizations";
import type { KnowledgeServiceRow } from "@/lib/knowledge/business-profile/knowledge";
import type { AssistantPersona } from "@/lib/platform/providers/llm/interface";

/**
 * The public demo assistant: what /mobile-preview talks to when nobody is signed in. Defined here,
 * not in the database; its turns belong to no organization (audio_clip and chat_turn rows with
 * organization_id null), spend no credits, and are limited per IP address.
 */
export const DEMO_ASSISTANT: AssistantPersona & { voice: string } = {
  name: "Sam",
  personality: "friendly",
  description: "The front desk of a neighbourhood café: answers questions, takes table bookings and catering orders.",
  instructions:
    "Greet guests warmly. Offer the next free table when someone wants to book. Take a message for the manager when asked. Never quote prices you do not have.",
  greeting: "Hi, thanks for calling Switchboard Demo Café! This is Sam, how can I help you today?",
  voice: "alloy",
};

export const DEMO_BUSINESS_NAME = "Switchboard Demo Café";

/** The café's business profile: rendered for each turn like an organization's (so "are you open now?" is true to the clock). */
export const DEMO_PROFILE: BusinessProfile = {
  timezone: "America/New_York",
  address: "12 Market Street, Springfield",
  weeklyHours: {
    mon: [{ open: "07:00", close: "18:00" }],
    tue: [{ open: "07:00", close: "18:00" }],
    wed: [{ open: "07:00", close: "18:00" }],
    thu: [{ open: "07:00", close: "18:00" }],
    fri: [{ open: "07:00", close: "18:00" }],
    sat: [{ open: "08:00", close: "16:00" }],
    sun: [{ open: "08:00", close: "16:00" }],
  },
  policies: [
    { title: "Table bookings", text: "We hold a booked table for 15 minutes; groups of 8 or more need a booking a day ahead." },
    { title: "Catering", text: "Catering orders need 48 hours' notice and a 25% deposit." },
  ],
  faqs: [
    { question: "Do you have vegan options?", answer: "Yes: oat and soy milk at no extra charge, and a vegan breakfast bowl and sandwich every day." },
    { question: "Is there wifi?", answer: "Yes, free wifi for guests; the password is on your receipt." },
    { question: "Can I bring my dog?", answer: "Dogs are welcome on the patio, and we keep a water bowl outside." },
  ],
};

const demoService = (name: string, durationMinutes: number, priceCents: number | null, priceText: string | null = null, description = ""): KnowledgeServiceRow => ({
  name,
  description,
  durationMinutes,
  priceCents,
  priceText,
  bookable: true,
  isActive: true,
});

export const DEMO_SERVICES: KnowledgeServiceRow[] = [
  demoService("Coffee", 5, 350, null, "Espresso drinks and filter coffee"),
  demoService("Breakfast", 30, 1200, null, "Served until 11 AM"),
  demoService("Lunch", 45, 1500, null, "Sandwiches, soups and salads from 11 AM"),
  demoService("Pastries", 5, 400),
  demoService("Catering", 60, null, "from $12 per person"),
  demoService("Table bookings", 60, null, "free"),
];

/** Demo chat sessions are kept apart from organizations' sessions by this prefix. */
export const DEMO_SESSION_PREFIX = "demo:";

/** Signed-out callers: this many turns per IP address per window. */
export const DEMO_RATE_LIMIT = { limit: 20, windowMs: 10 * 60 * 1000 };

export const DEMO_RATE_LIMIT_MESSAGE =
  "Too many demo messages from your network. Please wait a few minutes, or sign in to test your own assistant.";
