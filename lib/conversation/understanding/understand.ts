/**
 * One utterance → what the caller wants and what they named. The trained model ranks the intents;
 * the entity readers (dates with chrono-node, numbers with libphonenumber-js, fuzzy names) run on
 * every utterance; `ctx.expecting` only decides how a bare answer is read, never traps a caller:
 * a confident "leave the flow" intent (a person, goodbye, repeat, an emergency…) always wins.
 */
import { extractName, extractPhone, matchPerson, matchService, spokenDigitsToText } from "./entities";
import { classify, intentModel, normaliseUtterance, type ScoredIntent } from "./intent-model";
import { detectLanguage } from "./language";
import type { CallerIntent, Understanding, UnderstandingContext } from "./types";
import { resolveWhen } from "./when";

/** Intents that take a caller out of whatever the assistant was collecting. */
const LEAVES_FLOW = new Set<CallerIntent>([
  "person",
  "goodbye",
  "repeat",
  "emergency",
  "opt_out",
  "forget_me",
  "robot",
  "complaint",
  "callback",
  "message",
  "voicemail",
  "cancel_appointment",
  "spam",
]);
/** Intents a bare day, name or number can belong to without changing the subject. */
const FLOW_INTENTS = new Set<CallerIntent>(["book", "reschedule", "availability", "yes", "no"]);
/** How sure the model must be before a "leave the flow" reading beats what was asked for. */
const LEAVE_CONFIDENCE = 0.5;

const YES = /^(?:(?:um+|uh+|oh|well|so)\s+)*(?:yes|yeah|yep|yup|ya|sure|ok|okay|correct|right|exactly|absolutely|definitely|perfect|sounds good|that works|that's right|that is right|that's correct|uh huh|mhm|please do|go ahead|s[ií]|claro|vale|correcto|exacto|de acuerdo|est[aá] bien|perfecto|dale|as[ií] es|eso es|por supuesto)\b/;
const NO = /^(?:(?:um+|uh+|oh|well|so)\s+)*(?:no|nope|nah|not really|negative|incorrect|wrong|that's wrong|that's not right|para nada|negativo|est[aá] mal)\b/;
/** Words a question about cost uses; without them a service named is not a price question. */
const PRICE_WORDS = /\b(how much|cost|costs|price|prices|pricing|charge|charges|fee|fees|rate|rates|quote|expensive|cheap|estimate|cu[aá]nto|cuesta|costar[ií]a|precio|precios|cobran|cobra|tarifa|presupuesto|caro)\b/;

function rescore(ranked: ScoredIntent[], text: string): ScoredIntent[] {
  // The model learns "a service named" as a price cue; a price question must also ask about cost.
  if (ranked[0]?.intent === "price" && ranked.length > 1 && !PRICE_WORDS.test(text)) {
    return [...ranked.slice(1), ranked[0]];
  }
  return ranked;
}

function withoutWords(text: string, words: string): string {
  const drop = new Set(words.toLowerCase().split(/\s+/));
  return text
    .split(/\s+/)
    .filter((word) => !drop.has(word.toLowerCase().replace(/[.,!?;:]/g, "")))
    .join(" ");
}

export async function understand(text: string, ctx: UnderstandingContext): Promise<Understanding> {
  const language = detectLanguage(text, ctx.language ?? undefined);
  const plain = normaliseUtterance(text);
  const ranked = rescore(await classify(text, language), plain);

  const phone = extractPhone(text);
  // A number said is not a day: take its digits out before reading dates.
  const forDates = phone ? spokenDigitsToText(text).replace(/\+?\d[\d\s()-]{8,}\d/g, " ") : text;
  const when = resolveWhen(forDates, { now: ctx.now, timeZone: ctx.timeZone, language });
  const name = extractName(text, language, ctx.expecting === "name");
  const service = matchService(text, ctx.services);
  // The caller's own name is not someone at the business ("me llamo Ana López" is not "Maria Lopez").
  const person = matchPerson(name ? withoutWords(text, name) : text, ctx.people);

  const confidence = ranked[0].score;
  let intent = ranked[0].intent;
  let answers: Understanding["answers"];
  const leaving = LEAVES_FLOW.has(intent) && confidence >= LEAVE_CONFIDENCE;

  if (!leaving) {
    switch (ctx.expecting) {
      case "yes_no":
        if (YES.test(plain) && intent !== "no") {
          intent = "yes";
          answers = "yes_no";
        } else if (NO.test(plain) && intent !== "yes") {
          intent = "no";
          answers = "yes_no";
        } else if (intent === "yes" || intent === "no") answers = "yes_no";
        break;
      case "when":
        if (when) answers = "when";
        break;
      case "phone":
        if (phone) answers = "phone";
        break;
      case "name":
        if (name) answers = "name";
        break;
      case "service":
        if (service) answers = "service";
        break;
      case "message":
        if (plain) answers = "message";
        break;
    }
    // A bare answer ("Tuesday at 3", "Tom Baker") is not a new request: the model's guess at one is noise.
    if (answers && answers !== "yes_no" && !FLOW_INTENTS.has(intent)) {
      intent = "other";
    }
  }
  // Someone asked for by name or role is a request for a person, whatever else the model heard.
  if (person && !leaving && (intent === "other" || intent === "greeting") && !answers) intent = "person";

  const understanding: Understanding = {
    language,
    intent,
    confidence: intent === ranked[0].intent ? confidence : (ranked.find((item) => item.intent === intent)?.score ?? confidence),
    intents: ranked,
  };
  if (when) understanding.when = when;
  if (phone) understanding.phone = phone;
  if (name) understanding.name = name;
  if (service) understanding.service = service;
  if (person) understanding.person = person;
  if (answers) understanding.answers = answers;
  return understanding;
}

/** Trains the model now (at start-up), so the first caller does not wait for it. */
export async function warmUp(): Promise<void> {
  await intentModel();
}
