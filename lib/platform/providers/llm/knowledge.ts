import { bestMatch, isQuestion, keywords, overlapScore } from "@/lib/platform/text/match";
import type { BusinessInfo, Intent, KnowledgeDay, KnowledgeService, ReplyInput } from "./interface";

/**
 * The business's knowledge as the assistant uses it: the facts block of the language model's system
 * prompt, and the local responder's answers to questions about hours, prices, services, location,
 * policies and FAQs. Everything comes from the BusinessInfo the feature rendered
 * (lib/knowledge/business-profile/knowledge.ts); when it does not answer the caller's question, the reply
 * says so — never a guess — and carries `knowledgeGap` so the feature logs the question for the owner.
 */

/** The knowledge as lines for a system prompt: only what the business entered. */
export function knowledgeFacts(profile: BusinessInfo): string {
  const lines: string[] = [`Business name: ${profile.name}`];
  if (profile.address) lines.push(`Address: ${profile.address}`);
  if (profile.phone) lines.push(`Phone: ${profile.phone}`);
  if (profile.website) lines.push(`Website: ${profile.website}`);
  if (profile.timezone) lines.push(`Time zone: ${profile.timezone}`);
  if (profile.now) {
    lines.push(`Right now it is ${profile.now.weekday} ${profile.now.date}, ${profile.now.time} local time. ${profile.now.status}`);
  }
  if (profile.weeklyHours?.length) {
    lines.push("Opening hours:", ...profile.weeklyHours.map((d) => `  ${d.day}: ${d.hours}`));
  } else if (profile.hours) {
    lines.push(`Opening hours: ${profile.hours}`);
  }
  if (!profile.now && profile.openNow !== undefined) lines.push(`Right now the business is ${profile.openNow ? "open" : "closed"}.`);
  if (profile.nextDays?.length) {
    lines.push("The next seven days (holidays applied):", ...profile.nextDays.map((d) => `  ${dayLine(d)}`));
  }
  const later = (profile.specialDays ?? []).filter((d) => !profile.nextDays?.some((n) => n.date === d.date));
  if (later.length) lines.push("Holidays and special hours:", ...later.map((d) => `  ${dayLine(d)}`));
  if (profile.serviceDetails?.length) {
    lines.push("Services:", ...profile.serviceDetails.map((s) => `  - ${serviceLine(s)}`));
  } else if (profile.services?.length) {
    lines.push(`Services (no prices or durations given): ${profile.services.join(", ")}`);
  }
  if (profile.policies?.length) lines.push("Policies:", ...profile.policies.map((p) => `  - ${p.title}: ${p.text}`));
  if (profile.faqs?.length) lines.push("Questions and answers:", ...profile.faqs.map((f) => `  Q: ${f.question}\n  A: ${f.answer}`));
  return lines.join("\n");
}

function dayLine(d: KnowledgeDay): string {
  const label = d.label === "today" || d.label === "tomorrow" ? `${d.label}, ${d.weekday}` : d.weekday;
  return `${label} ${d.date}: ${d.hours}${d.note ? ` (${d.note})` : ""}`;
}

function serviceLine(s: KnowledgeService): string {
  const details = [s.duration, s.price ?? "price not given", s.bookable === false ? "not bookable by phone" : null].filter(Boolean);
  return `${s.name}: ${details.join(", ")}${s.description ? `. ${s.description}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// The local responder's answers.

export type Tone = { ack: string; closer: string };
export type KnowledgeAnswer = { text: string; knowledgeGap?: { question: string } };

function join(...parts: (string | null | undefined | false)[]): string {
  return parts
    .filter((p): p is string => typeof p === "string" && p.trim() !== "")
    .map((p) => p.trim())
    .join(" ");
}

const capitalize = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

function listWords(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The caller's question, trimmed for the owner's list. */
function asked(text: string): { question: string } {
  const question = text.trim().replace(/\s+/g, " ");
  return { question: question.length > 300 ? `${question.slice(0, 297)}…` : question };
}

function dontKnow(biz: string, what: string, tone: Tone, text: string): KnowledgeAnswer {
  return {
    text: join(`I don't have ${what} on hand, so I won't guess.`, `I've noted your question for the team at ${biz}; if you'd like an answer from them, I can take your name and number for a call-back request.`, tone.closer),
    knowledgeGap: asked(text),
  };
}

type NamedService = { name: string; detail?: KnowledgeService };

function allServices(profile: BusinessInfo): NamedService[] {
  const named: NamedService[] = (profile.serviceDetails ?? []).map((detail) => ({ name: detail.name, detail }));
  for (const name of profile.services ?? []) {
    if (!named.some((s) => s.name.toLowerCase() === name.toLowerCase())) named.push({ name });
  }
  return named;
}

/** Words too generic to identify a service on their own. */
const GENERIC = new Set(["service", "treatment", "visit", "session", "appointment", "consultation", "package", "standard", "basic", "full", "new", "regular"]);

function sameStem(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 5) return false;
  if (a.startsWith(b) || b.startsWith(a)) return true;
  let common = 0;
  while (common < a.length && a[common] === b[common]) common++;
  return common >= 6;
}

/** The service the caller named: the one whose distinctive words the caller used most completely. */
export function mentionedService(text: string, services: NamedService[]): NamedService | null {
  const said = keywords(text);
  let best: { service: NamedService; score: number; shared: number } | null = null;
  for (const service of services) {
    const words = [...keywords(service.name)].filter((w) => !GENERIC.has(w));
    if (words.length === 0) continue;
    // "Vaccines" for "Vaccination": words that begin alike for six letters (or one begins the other) are one word.
    const shared = words.filter((w) => said.has(w) || [...said].some((x) => sameStem(x, w))).length;
    if (shared === 0) continue;
    const score = shared / words.length;
    if (score >= 0.5 && (!best || score > best.score || (score === best.score && shared > best.shared))) best = { service, score, shared };
  }
  if (best) return best.service;
  // "How much is a consultation?" with one service called "Initial Consultation": the generic word
  // names it when no other service has it.
  const byGeneric = services.filter((service) => [...keywords(service.name)].some((w) => GENERIC.has(w) && said.has(w) && w !== "service"));
  return byGeneric.length === 1 ? byGeneric[0] : null;
}

/** "$0" is said the way a business says it: free. */
export function spokenPrice(price: string): string {
  return /^\$\s?0(?:\.00)?$/.test(price.trim()) ? "free" : price;
}

function describePrice(service: KnowledgeService): string {
  const name = capitalize(service.name);
  const takes = service.duration ? ` and takes about ${service.duration}` : "";
  return `${name} is ${spokenPrice(service.price ?? "")}${takes}.`;
}

const FAQ_THRESHOLD = 0.5;
const POLICY_THRESHOLD = 0.4;

/** The words that frame a question rather than name its subject ("do you offer …?", "can I …?"). */
const FAQ_FRAME_WORDS = new Set(["offer", "have", "take", "accept", "provide", "need", "do", "does", "you", "your", "can", "could", "will", "would", "there", "any", "get", "what", "which", "where", "when", "how", "who", "why", "is", "are", "the", "a", "an", "i", "we", "my", "our"]);

function faqAnswer(text: string, profile: BusinessInfo): string | null {
  const match = bestMatch(text, profile.faqs ?? [], (f) => f.question, FAQ_THRESHOLD);
  if (match) return match.item.answer;
  // "If I need a new unit, do you do financing or do I pay up front?": a long question that says every
  // word naming the FAQ's subject ("financing" of "Do you offer financing?") is that question.
  if (isQuestion(text)) {
    const asked = keywords(text);
    // What the business does anyway goes without saying: "do you guys do cats?" asks "Do you groom cats?" of a groomer.
    const ownWords = [...keywords([profile.name, ...allServices(profile).map((s) => s.name)].join(" "))];
    const said = (w: string) => asked.has(w) || [...asked].some((x) => sameStem(x, w));
    for (const faq of profile.faqs ?? []) {
      const subject = [...keywords(faq.question)].filter((w) => !FAQ_FRAME_WORDS.has(w) && w.length > 2 && !ownWords.some((o) => o === w || sameStem(o, w)));
      const saidCount = subject.filter(said).length;
      // A question of three subject words or more is that FAQ with all but one of them said ("bring … own … stuff" for supplies).
      if (subject.length && (saidCount === subject.length || (subject.length >= 3 && saidCount >= subject.length - 1))) return faq.answer;
    }
  }
  // "Do you service Arvada?", "do you take Cigna?": a name the caller says that an answer lists (a town,
  // an insurer, a brand) — the answer is about it, however the question was worded.
  if (!isQuestion(text)) return null;
  const said = keywords(text);
  const business = keywords(profile.name);
  for (const faq of profile.faqs ?? []) {
    const named = (faq.answer.match(/\b\p{Lu}[\p{L}'-]{3,}/gu) ?? []).filter((word, i) => i > 0 || !faq.answer.startsWith(word));
    if (named.some((word) => [...keywords(word)].some((k) => said.has(k) && !business.has(k)))) return faq.answer;
  }
  return null;
}

function policyAnswer(text: string, profile: BusinessInfo): string | null {
  const said = keywords(text);
  let best: { text: string; score: number } | null = null;
  for (const policy of profile.policies ?? []) {
    // The title names the subject ("Cancellation policy"); a caller's words meeting it is the strongest signal.
    const titleWords = new Set([...keywords(policy.title)].filter((w) => w !== "policy" && w !== "polic"));
    // "Is there a fee if I cancel my appointment last minute?" names the whole subject of "Cancellation"
    // in a long question: how much of the title was said counts too, not only the overlap of both.
    const covered = titleWords.size ? [...titleWords].filter((w) => said.has(w)).length / titleWords.size : 0;
    const title = Math.max(overlapScore(said, titleWords), covered * 0.9);
    const body = overlapScore(said, keywords(policy.text)) * 0.8;
    const score = Math.max(title, body);
    if (score >= POLICY_THRESHOLD && (!best || score > best.score)) best = { text: policy.text, score };
  }
  return best?.text ?? null;
}

const WEEKDAY_WORDS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const HOLIDAY_WORDS =
  /\b(christmas( eve)?|xmas|new year'?s?( eve| day)?|thanksgiving|easter|independence day|fourth of july|4th of july|july 4(th)?|memorial day|labou?r day|veterans day|mlk day|martin luther king|presidents'? day|good friday|boxing day|hanukkah|yom kippur|rosh hashanah|eid|diwali|lunar new year|holidays?)\b/i;

/** The days the caller asked about, from today and the next six days. */
function daysAsked(text: string, days: KnowledgeDay[]): KnowledgeDay[] {
  const lower = text.toLowerCase();
  const picked: KnowledgeDay[] = [];
  const add = (d: KnowledgeDay | undefined) => {
    if (d && !picked.includes(d)) picked.push(d);
  };
  if (/\b(today|tonight|this (morning|afternoon|evening))\b/.test(lower)) add(days.find((d) => d.label === "today"));
  if (/\btomorrow\b/.test(lower)) add(days.find((d) => d.label === "tomorrow"));
  if (/\b(this )?weekend\b/.test(lower)) {
    add(days.find((d) => d.weekday === "Saturday"));
    add(days.find((d) => d.weekday === "Sunday"));
  }
  for (const word of WEEKDAY_WORDS) {
    if (new RegExp(`\\b${word}s?\\b`).test(lower)) add(days.find((d) => d.weekday.toLowerCase() === word));
  }
  return picked;
}

/** A holiday the caller named, among the known special days. */
function holidayAsked(text: string, profile: BusinessInfo): KnowledgeDay | null {
  const said = keywords(text);
  const candidates = [...(profile.nextDays ?? []), ...(profile.specialDays ?? [])].filter((d) => d.note);
  for (const day of candidates) {
    const words = [...keywords(day.note!)].filter((w) => w !== "day" && w !== "holiday");
    if (words.length && words.some((w) => said.has(w))) return day;
  }
  return null;
}

function dayAnswer(day: KnowledgeDay): string {
  const when = day.label === "today" ? "Today" : day.label === "tomorrow" ? `Tomorrow, ${day.weekday},` : `On ${day.weekday}`;
  const why = day.note ? ` for ${day.note}` : "";
  if (day.hours === "closed") return `${when} we're closed${why}.`;
  return `${when} we're open ${day.hours}${day.note ? ` (${day.note} hours)` : ""}.`;
}

const NOW_WORDS = /\b(right now|now|currently|at the moment|still open|open yet)\b/i;

function hoursAnswer(input: ReplyInput, tone: Tone): KnowledgeAnswer {
  const { profile, text } = input;
  const biz = profile.name;
  const hasHours = Boolean(profile.weeklyHours?.length || profile.hours);
  if (!hasHours) {
    return {
      text: join(`I don't have ${biz}'s opening hours on hand, so I won't guess.`, `I've noted your question for the team; if you'd like them to confirm, I can take your name and number for a call-back request.`, tone.closer),
      knowledgeGap: asked(text),
    };
  }
  const holiday = holidayAsked(text, profile);
  if (holiday) return { text: join(dayAnswer(holiday), tone.closer) };
  if (HOLIDAY_WORDS.test(text)) {
    // A holiday the owner has not entered: say the regular hours, and that holiday hours are not known.
    return {
      text: join(
        `I don't have special holiday hours on hand, so I won't guess.`,
        profile.hours ? `Our regular hours are ${profile.hours}.` : null,
        `I've noted your question for the team; I can take your name and number if you'd like them to confirm.`,
      ),
      knowledgeGap: asked(text),
    };
  }
  const days = profile.nextDays?.length ? daysAsked(text, profile.nextDays) : [];
  if (days.length) return { text: join(...days.map(dayAnswer), tone.closer) };
  // "Are you open now?" is answered by the status alone; a general question also hears the week.
  const onlyNow = Boolean(profile.now) && NOW_WORDS.test(text) && !/\b(hours|when|what time|times)\b/i.test(text);
  return {
    text: join(
      profile.now ? profile.now.status : profile.openNow !== undefined ? `We're ${profile.openNow ? "open" : "closed"} right now.` : tone.ack,
      profile.hours && !onlyNow ? `Our hours are ${profile.hours}.` : null,
      profile.address && !onlyNow ? `You'll find us at ${profile.address}.` : null,
      tone.closer,
    ),
  };
}

const PRICE_WORDS = new Set(["price", "general", "typical", "usual", "roughly", "approximately", "list", "range", "charge", "pay", "expensive", "cheap", "quote", "estimate"]);

function pricingAnswer(input: ReplyInput, tone: Tone): KnowledgeAnswer {
  const { profile, text } = input;
  const biz = profile.name;
  const services = allServices(profile);
  const service = mentionedService(text, services);
  if (service) {
    if (service.detail?.price) return { text: join(describePrice(service.detail), tone.closer) };
    return {
      text: join(
        `I'm ${biz}'s automated assistant and I don't have the price of ${service.name} on hand, so I won't guess.`,
        `If you'd like a quote for ${service.name}, I can take your name and number for the team.`,
      ),
      knowledgeGap: asked(text),
    };
  }
  const priced = services.filter((s) => s.detail?.price);
  // "What are your prices?" asks for the list; "How much is a filling?" names something we have no price for.
  const generic = [...keywords(text)].every((w) => PRICE_WORDS.has(w));
  if (priced.length && generic) {
    const listed = priced.slice(0, 4).map((s) => `${s.name} ${s.detail!.price}`);
    return {
      text: join(
        `${capitalize(listWords(listed))}.`,
        priced.length > 4 ? `We offer ${priced.length - 4} more services too.` : null,
        `Which service would you like to know more about?`,
      ),
    };
  }
  return {
    text: join(
      `I'm ${biz}'s automated assistant and I don't have exact prices for that on hand, so I won't guess.`,
      `If you'd like a quote, I can take your name and number for the team.`,
      services.length ? `In the meantime, I can tell you about our services or help you book a visit.` : tone.closer,
    ),
    knowledgeGap: asked(text),
  };
}

const LOCATION = /\b(where|address|located|location|directions|find you|get there|how do i get)\b/i;
const PHONE = /\b(phone number|your number|call you|number to call|telephone)\b/i;
const WEBSITE = /\b(website|web site|web page|online|url)\b/i;
const SERVICES = /\b(services?|do you (do|offer|have|provide|treat)|offer|provide|treatments?|what can you do)\b/i;

function otherAnswer(input: ReplyInput, tone: Tone): KnowledgeAnswer | null {
  const { profile, text } = input;
  const biz = profile.name;
  const question = isQuestion(text);
  if (LOCATION.test(text) && !/\bparking\b/i.test(text)) {
    return profile.address ? { text: join(`We're at ${profile.address}.`, tone.closer) } : dontKnow(biz, "our address", tone, text);
  }
  if (question && PHONE.test(text) && profile.phone) return { text: join(`You can reach ${biz} at ${profile.phone}.`, tone.closer) };
  if (question && WEBSITE.test(text) && profile.website) return { text: join(`Our website is ${profile.website}.`, tone.closer) };
  const services = allServices(profile);
  const service = mentionedService(text, services);
  if (service) {
    const d = service.detail;
    return {
      text: join(
        `Yes, we offer ${service.name}.`,
        d?.description ? `${d.description.replace(/[.!?]*$/, "")}.` : null,
        d?.duration || d?.price ? [d.duration ? `It takes about ${d.duration}` : null, d.price ? (spokenPrice(d.price) === "free" ? "is free" : `costs ${d.price}`) : null].filter(Boolean).join(" and ") + "." : null,
        d?.bookable === false ? tone.closer : `Would you like to book one?`,
      ),
    };
  }
  if (SERVICES.test(text) && question) {
    if (services.length && /\b(what|which)\b/i.test(text)) {
      return { text: join(`At ${biz} we offer ${listWords(services.map((s) => s.name))}.`, `Would you like to book one?`) };
    }
    if (services.length) {
      // "Do you do X?" where X is none of the services: do not guess that we do.
      return {
        text: join(
          `I don't see that among our services, and I won't guess.`,
          `We offer ${listWords(services.map((s) => s.name))}.`,
          `I've noted your question for the team; I can take your name and number if you'd like them to answer it.`,
        ),
        knowledgeGap: asked(text),
      };
    }
  }
  if (question) return dontKnow(biz, "that information", tone, text);
  return null;
}

const CONVERSATIONAL =
  /\b(hear me|are you (still )?there|are you (a )?(robot|real|human|bot|machine|computer|an? ai|person)|who am i (speaking|talking) (to|with)|who is this|what did you say|say that again|come again|repeat that|pardon|what do you mean)\b/i;

/**
 * The local responder's answer from knowledge, or null when the turn is not a question about the
 * business (greetings, bookings, hand-offs, complaints, orders, spam: lib/platform/providers/llm/local.ts).
 */
export function answerFromKnowledge(input: ReplyInput, intent: Intent, tone: Tone): KnowledgeAnswer | null {
  // "What happens if I'm running late to my appointment?": a policy question that names an appointment.
  if (intent === "appointment") {
    const policy = isQuestion(input.text) ? policyAnswer(input.text, input.profile) : null;
    return policy ? { text: join(policy, tone.closer) } : null;
  }
  if (intent === "spam" || intent === "human_handoff" || intent === "complaint" || intent === "order") return null;
  if (intent === "greeting" && !isQuestion(input.text.replace(/\bhow are you\b\??/i, ""))) return null;
  // "Hello?", "Are you there?", "Can you hear me?": conversation, not a question about the business.
  const said = keywords(input.text);
  if (said.size === 0 || CONVERSATIONAL.test(input.text)) return null;
  // "Is this Harbor Dental?"
  const name = keywords(input.profile.name);
  if (isQuestion(input.text) && [...said].every((w) => name.has(w))) {
    return { text: join(`Yes, you've reached ${input.profile.name}.`, `How can I help you today?`) };
  }

  // The owner's own words first: an FAQ (including answered knowledge gaps), then a policy.
  const faq = faqAnswer(input.text, input.profile);
  if (faq) return { text: join(faq, tone.closer) };
  const policy = policyAnswer(input.text, input.profile);
  if (policy && isQuestion(input.text)) return { text: join(policy, tone.closer) };

  if (intent === "hours") return hoursAnswer(input, tone);
  if (intent === "pricing") return pricingAnswer(input, tone);
  return otherAnswer(input, tone);
}
