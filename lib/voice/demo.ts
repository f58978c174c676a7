import type { AssistantPersona, BusinessInfo } from "@/lib/providers/llm/interface";

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

export const DEMO_BUSINESS: BusinessInfo = {
  name: "Switchboard Demo Café",
  hours: "Monday to Friday 7 AM to 6 PM, weekends 8 AM to 4 PM",
  address: "12 Market Street, Springfield",
  services: ["coffee", "breakfast", "lunch", "pastries", "catering", "table bookings"],
};

/** Demo chat sessions are kept apart from organizations' sessions by this prefix. */
export const DEMO_SESSION_PREFIX = "demo:";

/** Signed-out callers: this many turns per IP address per window. */
export const DEMO_RATE_LIMIT = { limit: 20, windowMs: 10 * 60 * 1000 };

export const DEMO_RATE_LIMIT_MESSAGE =
  "Too many demo messages from your network. Please wait a few minutes, or sign in to test your own assistant.";
