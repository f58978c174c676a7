/**
 * One utterance → what the caller wants and what they named. The trained model ranks the intents;
 * the entity readers (dates with chrono-node, numbers with libphonenumber-js, fuzzy names) run on
 * every utterance; `ctx.expecting` only decides how a bare answer is read, never traps a caller:
 * a confident "leave the flow" intent (a person, goodbye, repeat, an emergency…) always wins.
 */
import type { CountryCode } from "libphonenumber-js";
import { extractName, extractPhone, trailingName, matchPerson, matchService, spokenDigitsToText } from "./entities";
import { aboveFloor, classify, intentModel, normaliseUtterance, type ScoredIntent } from "./intent-model";
import { detectLanguage } from "./language";
import type { CallerIntent, Understanding, UnderstandingContext } from "./types";
import { resolveWhen } from "./when";

/** Intents that take a caller out of whatever the assistant was collecting, whatever else they said. */
const ALWAYS_LEAVES = new Set<CallerIntent>(["person", "goodbye", "repeat", "emergency", "opt_out", "forget_me", "robot"]);
/** Intents that leave a flow too, unless the words also answer what was asked. */
const MAY_LEAVE = new Set<CallerIntent>(["complaint", "callback", "message", "voicemail", "cancel_appointment", "spam"]);
/** Intents a bare day, name or number can belong to without changing the subject. */
const FLOW_INTENTS = new Set<CallerIntent>(["book", "reschedule", "availability", "yes", "no"]);
/** How sure the model must be before a "leave the flow" reading beats what was asked for. */
const LEAVE_CONFIDENCE = 0.5;

const YES = /^(?:(?:um+|uh+|oh|well|so)\s+)*(?:yes|yeah|yep|yup|ya|sure|ok|okay|correct|right|exactly|absolutely|definitely|perfect|sounds good|that works|that's right|that is right|that's correct|uh huh|mhm|please do|go ahead|s[ií]|claro|vale|correcto|exacto|de acuerdo|est[aá] bien|perfecto|dale|as[ií] es|eso es|por supuesto)(?=\s|$)/;
const NO = /^(?:(?:um+|uh+|oh|well|so)\s+)*(?:no|nope|nah|not really|negative|incorrect|wrong|that's wrong|that's not right|para nada|negativo|est[aá] mal)(?=\s|$)/;
/** Words a question about cost uses; without them a service named is not a price question. */
const PRICE_WORDS = /\b(how much|cost|costs|price|prices|pricing|charge|charges|fee|fees|rate|rates|quote|expensive|cheap|estimate|cu[aá]nto|cuesta|costar[ií]a|precio|precios|cobran|cobra|tarifa|presupuesto|caro)\b/;

/** "Not urgent", "no rush": the caller says outright that it is not an emergency. */
const NOT_URGENT = /\b(not (?:an? )?(?:urgent|emergency|rush)|no rush|no hurry|nothing urgent|no es (?:urgente|una emergencia)|sin prisa|no hay prisa|nada urgente)\b/;

/** Words of something gone wrong: without them a complaint reading of a booking request is the model's noise. */
const SOMETHING_WRONG = /\b(upset|unhappy|not happy|disappoint\w*|terrible|awful|horrible|ruin\w*|broke|broken|damag\w*|wrong|bad|worst|rude|complain\w*|refund|angry|mad|furious|unacceptable|ridiculous|never|still|missing|dirty|mess\w*|scratch\w*|dent\w*|overcharg\w*|charged|burn\w*|hurt|shaved|botched|uneven|fix|redo|mal|queja|molest\w*|enojad\w*|horrible|arruin\w*)\b/;

function demote(ranked: ScoredIntent[]): ScoredIntent[] {
  return ranked.length > 1 ? [...ranked.slice(1), ranked[0]] : ranked;
}

/** Requests a name goes with: a booking, a move, a cancellation, a call back, a message. */
const NEEDS_A_NAME = new Set<CallerIntent>(["book", "reschedule", "cancel_appointment", "availability", "callback", "message", "complaint", "emergency"]);

/** A greeting that opens an utterance ("hello?", "hi there,", "buenas tardes,"). */
const LEADING_GREETING = /^(?:(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|hola|buenas(?: tardes| noches)?|buenos d[ií]as)(?: there)?[\s,.!?¿¡]+)+/i;

/** Below this, a spam reading gives way to the next intent. */
const SPAM_CONFIDENCE = 0.6;

/** Things a bag of words cannot see, put right after the model has ranked. */
/** A farewell that closes the utterance ("no, gracias, adiós", "nope that's all, bye"). */
const ENDS_WITH_FAREWELL = /(?:^|\s)(?:bye(?: bye)?|goodbye|good bye|bye now|take care|have a good (?:one|day|night)|adi[oó]s|chao|chau|hasta luego|hasta pronto|nos vemos)\s*$/;
/** What a closing farewell outweighs: a bare no, thanks, yes or nothing in particular. */
const CLOSED_BY_FAREWELL = new Set<CallerIntent>(["no", "thanks", "yes", "other", "greeting"]);

/** Danger in so many words, whatever else the sentence holds: a gas smell, a carbon monoxide alarm, someone who cannot breathe. */
const PLAIN_DANGER = /\b(?:(?:ate|eaten|eat|swallowed|got into|chewed)\s+(?:[\w']+\s+){0,5}(?:chocolate|grapes|raisins|xylitol|antifreeze|rat poison|poison|bleach|pills|ibuprofen|tylenol)|carbon monoxide|(?:co|co2) (?:alarm|detector)|mon[oó]xido de carbono|(?:smell(?:s|ing)?|smelled)\s+(?:of\s+|like\s+)?gas|gas\s+(?:leak|smell)|(?:huele|oler|olor)\s+(?:mucho\s+)?a\s+gas|fuga\s+de\s+gas|can'?t\s+breathe|cannot\s+breathe|not\s+breathing|no\s+(?:puede|puedo)\s+respirar|no\s+respira)\b/;

/** No heat, said in everyday words… */
const NO_HEAT = /\b(?:no heat|heat(?:er|ing)?\s+(?:just\s+)?(?:stopped|quit|died|went out|is out|isn'?t working|is not working|not working|won'?t (?:turn|come|kick) on)|furnace\s+(?:just\s+)?(?:stopped|quit|died|went out|is out|won'?t))/;
/** …with someone at risk from the cold or the cold itself dangerous: an emergency for a heating company. */
const AT_RISK_FROM_COLD = /\b(?:baby|newborn|infant|elderly|oxygen|freezing|below zero|hypotherm\w*|pipes? (?:might|will|could) freeze)\b/;

function rescore(ranked: ScoredIntent[], text: string): ScoredIntent[] {
  if (((NO_HEAT.test(text) && AT_RISK_FROM_COLD.test(text)) || PLAIN_DANGER.test(text)) && ranked[0]?.intent !== "emergency" && !NOT_URGENT.test(text)) {
    return [{ intent: "emergency", score: Math.max(0.9, ranked[0]?.score ?? 0) }, ...ranked.filter((r) => r.intent !== "emergency")];
  }
  // "No, gracias, adiós": the caller is leaving; the no and the thanks only lead up to it.
  if (ranked[0] && CLOSED_BY_FAREWELL.has(ranked[0].intent) && ENDS_WITH_FAREWELL.test(text)) {
    return [{ intent: "goodbye", score: Math.max(0.9, ranked[0].score) }, ...ranked.filter((r) => r.intent !== "goodbye")];
  }
  // The model learns "a service named" as a price cue; a price question must also ask about cost.
  if (ranked[0]?.intent === "price" && !PRICE_WORDS.test(text)) return demote(ranked);
  // "It won't stop running, not urgent": the model hears "won't stop", the caller said it can wait.
  if (ranked[0]?.intent === "emergency" && NOT_URGENT.test(text)) return demote(ranked);
  // Spam costs a real caller their call (no contact, no text-back): only a confident reading counts.
  if (ranked[0]?.intent === "spam" && ranked[0].score < SPAM_CONFIDENCE) return demote(ranked);
  return ranked;
}

function withoutWords(text: string, words: string): string {
  const drop = new Set(words.toLowerCase().split(/\s+/));
  return text
    .split(/\s+/)
    .filter((word) => !drop.has(word.toLowerCase().replace(/[.,!?;:]/g, "")))
    .join(" ");
}

const INTRODUCTION_WORDS = new Set(
  "hi hello hey hola buenas buenos días dias yeah yes yep ok okay so well this is it's its it i'm im am my name name's me llamo soy habla le es mi nombre again here speaking otra vez yo".split(" "),
);

function isOnlyAnIntroduction(plain: string, name: string): boolean {
  const nameWords = new Set(name.toLowerCase().split(/\s+/));
  return plain.split(/\s+/).every((word) => nameWords.has(word) || INTRODUCTION_WORDS.has(word));
}

export async function understand(text: string, ctx: UnderstandingContext): Promise<Understanding> {
  const language = detectLanguage(text, ctx.language ?? undefined);
  // "Me llamo Ramón" says a name, not "call me" (the classifier's stem of llamar): read as "mi nombre es".
  const spoken = text.replace(/\bme\s+llamo\b(?=\s+\p{L})/giu, "mi nombre es");
  const plain = normaliseUtterance(spoken);
  // The caller's own name says nothing about what they want ("name's Lucy Park" is no question about
  // parking, "Grace Hall" no hall): the model reads the words without it.
  const ownName = extractName(text, language, ctx.expecting === "name");
  const forIntent = ownName ? withoutWords(spoken, ownName).trim() || spoken : spoken;
  let ranked = [...rescore(await classify(forIntent, language), normaliseUtterance(forIntent))];
  // "Hello? Is this a recording?": the greeting only opens the question; the rest says what they want.
  const afterGreeting = forIntent.replace(LEADING_GREETING, "").trim();
  if (ranked[0]?.intent === "greeting" && afterGreeting !== forIntent.trim() && afterGreeting.split(/\s+/).length >= 2) {
    const rest = rescore(await classify(afterGreeting, language), normaliseUtterance(afterGreeting));
    if (rest[0] && rest[0].intent !== "greeting" && rest[0].intent !== "other") ranked = [...rest];
  }

  const phone = extractPhone(text, (ctx.region?.toUpperCase() as CountryCode | undefined) ?? "US");
  // A number said is not a day: take its digits out before reading dates.
  const forDates = phone ? spokenDigitsToText(text).replace(/\+?\d[\d\s()-]{8,}\d/g, " ") : text;
  const when = resolveWhen(forDates, { now: ctx.now, timeZone: ctx.timeZone, language });
  let name = ownName;
  const service = matchService(text, ctx.services);
  // "…a drain cleaning the day after tomorrow, like 9ish? Pete Ross": a request that needs a name, signed with one.
  const signed = !name && (NEEDS_A_NAME.has(ranked[0].intent) || Boolean(service && when?.date)) ? trailingName(text) : undefined;
  if (signed && !matchService(signed, ctx.services) && !matchPerson(signed, ctx.people)) name = signed;
  // The caller's own name is not someone at the business ("me llamo Ana López" is not "Maria Lopez").
  const person = matchPerson(name ? withoutWords(text, name) : text, ctx.people);

  // "A color the Wednesday after next at 4": a service and a day to come, with nothing gone wrong said, is a booking, not a complaint.
  if (ranked[0]?.intent === "complaint" && service && when?.date && !when.invalid && !SOMETHING_WRONG.test(plain)) ranked = demote(ranked);
  // "Oh, that was yesterday huh, tomorrow at 3 then": a day or time said is an answer, not "say that again".
  if (ranked[0].intent === "repeat" && ranked.length > 1 && when && !when.invalid && (when.date || when.time)) ranked.push(ranked.shift()!);
  const confidence = ranked[0].score;
  let intent = ranked[0].intent;
  let answers: Understanding["answers"];
  // What the caller dictates for a message is the message, even when it reads like a request of its own.
  if (ctx.expecting === "message" && plain && (intent === "message" || intent === "callback")) answers = "message";
  // "Hi, this is Tom Baker" only introduces the caller, whatever the model makes of "this is" or "me llamo".
  const introduction = Boolean(name && isOnlyAnIntroduction(plain, name!));
  if (introduction) {
    intent = "other";
    if (ctx.expecting === "name") answers = "name";
  }
  const answerSaid =
    (ctx.expecting === "yes_no" && (YES.test(plain) || NO.test(plain))) ||
    (ctx.expecting === "when" && when !== undefined) ||
    (ctx.expecting === "phone" && phone !== undefined) ||
    (ctx.expecting === "name" && name !== undefined) ||
    (ctx.expecting === "service" && service !== undefined);
  const leaving =
    !answers &&
    !introduction &&
    confidence >= LEAVE_CONFIDENCE &&
    // Words that also carry the answer leave only for a person, goodbye, repeat and the like:
    // "the Tuesday after next works, around 3" is not a complaint about work.
    (ALWAYS_LEAVES.has(intent) || (MAY_LEAVE.has(intent) && !answerSaid));

  if (!leaving && !introduction) {
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
  // "Is Attorney Green available?" asks for the person, not for a free slot (no day was named).
  if (person && intent === "availability" && !when && !answers) intent = "person";
  // Someone asked for by name or role is a request for a person, whatever else the model heard.
  if (person && !leaving && (intent === "other" || intent === "greeting") && !answers) intent = "person";

  // A rule that overrode the model (a bare answer, a yes said to a yes/no question, an introduction)
  // is certain: it goes first in the ranked list, the model's own ranking after it.
  const overridden = intent !== ranked[0].intent;
  const understanding: Understanding = {
    language,
    intent,
    confidence: overridden ? 1 : confidence,
    intents: overridden ? [{ intent, score: 1 }, ...aboveFloor(ranked, intent).filter((item) => item.intent !== intent)] : aboveFloor(ranked, intent),
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
