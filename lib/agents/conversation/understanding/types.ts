/**
 * The contract between caller understanding (lib/agents/conversation/understanding/, pure, offline) and the
 * conversation engine (lib/agents/conversation/). Understanding reads one thing a caller said or texted and
 * answers what they want and what they named; it never writes, never decides, never phrases a reply.
 */

export type Language = "en" | "es";

/** What the caller wants with these words. One per utterance; the engine keeps the dialogue state. */
export type CallerIntent =
  | "book" // a new appointment ("can I get a color", "anything for a haircut tomorrow morning?")
  | "reschedule" // move an existing one ("move it to Thursday, same time")
  | "cancel_appointment"
  | "availability" // asks what is free without committing
  | "hours" // opening hours, open now, holidays
  | "address" // where, directions, parking
  | "price" // how much something costs
  | "services" // what do you offer / do you do X
  | "policy" // cancellation policy, insurance, payment methods, other FAQ
  | "callback" // "give me a call back", "have someone call me"
  | "message" // "can I leave a message", "tell her that…"
  | "person" // a human, the owner, a named person ("is Dr. Chen in?", "put me through to the dentist")
  | "voicemail" // explicitly a voicemail
  | "emergency" // urgent harm: bleeding, burst pipe, flooding, gas smell, severe pain
  | "complaint"
  | "opt_out" // "stop texting me", "take me off your list", "don't call me again"
  | "forget_me" // "delete everything you have on me"
  | "robot" // "are you a robot / a real person / AI?"
  | "repeat" // "wait, what?", "say that again"
  | "yes"
  | "no"
  | "goodbye" // "bye", "that's all, thanks"
  | "thanks"
  | "greeting"
  | "spam" // robocall / sales pitch: merchant rates, warranties, SEO, prizes
  | "other";

/** A day/time the caller named, resolved in the business's time zone against the call's clock. */
export type SpokenWhen = {
  /** The words that named it, as said. */
  text: string;
  /** Local date "YYYY-MM-DD" when a day was named (or implied by "same day"). */
  date?: string;
  /** Local time "HH:MM" (24 h) when a time was named. */
  time?: string;
  /** A part of the day when no exact time was named. */
  partOfDay?: "morning" | "afternoon" | "evening";
  /** "same time" / "a la misma hora": keep the existing appointment's time. */
  sameTime?: boolean;
  /** The hour was said without am/pm and read as a business hour (1–7 PM, 8–11 AM): a time under discussion may say otherwise ("8 instead" of 7 PM is 8 PM). */
  meridiemGuessed?: boolean;
  /** The words name a day that cannot be used: it does not exist ("February 30th") or is past. Ask again, never guess. */
  invalid?: "nonexistent" | "past";
  /**
   * A span of days named without one day in it ("sometime next week", "this weekend", "la semana que
   * viene"): local dates, both included. `date` is then unset: offer days in the span, or ask which.
   */
  range?: { from: string; to: string };
};

export type Understanding = {
  language: Language;
  intent: CallerIntent;
  /** 0..1, the model's score for `intent`. */
  confidence: number;
  /** Every intent scored above a small floor, best first (the engine may look past the first). */
  intents: { intent: CallerIntent; score: number }[];
  when?: SpokenWhen;
  /** A phone number said as digits or words, E.164. */
  phone?: string;
  /** A person's own name the caller gave ("this is Tom Baker", "me llamo Ana"). */
  name?: string;
  /** The business's service the words name (fuzzy), by its exact name in the business's list. */
  service?: { name: string; score: number };
  /** A person at the business the caller asked for, by the name in the business's list when known. */
  person?: string;
  /**
   * Set when the words answer what `ctx.expecting` asked for (a bare "Tuesday at 3", "Tom", a number,
   * "yes") rather than start something else. A caller leaving the flow ("a person", "bye", "wait,
   * what?") never sets it: `intent` then says where they went.
   */
  answers?: NonNullable<UnderstandingContext["expecting"]>;
};

export type UnderstandingContext = {
  /** The call's clock. */
  now: Date;
  /** The business's IANA time zone. */
  timeZone: string;
  /** The business's services (names) and staff (names), for fuzzy matching. */
  services?: string[];
  people?: string[];
  /** What the assistant just asked for, so a bare answer is read as that ("Tuesday", "Tom", "yes"). */
  expecting?: "name" | "phone" | "when" | "service" | "yes_no" | "message" | null;
  /** The conversation's language so far, when known. */
  language?: Language;
  /** The business's country (ISO 3166 alpha-2, "US", "ES") for phone numbers said without a country code; "US" when unset. */
  region?: string;
};
