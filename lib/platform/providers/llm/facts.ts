import { splitSentences } from "@/lib/platform/text/sentences";
import type { AssistantPersona } from "./interface";

/**
 * What the owner told the assistant, read back as facts a caller may hear. The local responder has no
 * language model, so it cannot "understand" instructions; what it can do honestly is find the
 * sentence the owner wrote about the caller's question and say it back, turned from an instruction
 * ("Tell callers we deliver on Fridays") into a statement ("We deliver on Fridays").
 *
 * - Directives about manner ("Greet callers warmly", "Never quote prices") are not facts: skipped.
 * - Hours are found in the instructions, the greeting and the description: a clause with a time
 *   range, or with "open"/"closed"/"hours" next to a weekday.
 */

const DAY = "(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?s?\\.?";
const TIME = "(?:\\d{1,2}(?::\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.)?|noon|midnight)";
const TIME_RANGE = new RegExp(`\\b${TIME}\\s*(?:–|—|-|to|until|till)\\s*${TIME}`, "i");
const DAY_WORD = new RegExp(`\\b(?:${DAY}|weekdays?|weekends?|daily|every day)\\b`, "i");
const HOURS_WORD = /\b(open|opens|opening|close|closed|closes|closing|hours)\b/i;

/** Imperative openings that only say how to behave: such a sentence is no fact for a caller. */
const MANNER =
  /^(?:please\s+)?(?:greet|be|never|always|don'?t|do not|offer|take|ask|answer|keep|use|speak|sound|stay|avoid|make sure|try|help|collect|transfer|forward|book|schedule|confirm|thank|politely|handle|escalate|explain|give|direct|refer|route|respond|reply|follow|treat|remain|act|introduce|note|log|record|get|find|check|verify|capture|gather|end|hang up)\b/i;

/** "Tell callers (that) …", "Let them know …", "If someone asks about cakes, …": the part a caller hears. */
const LEAD_INS = [
  /^(?:please\s+)?(?:tell|inform|remind|let)\s+(?:the\s+)?(?:callers?|customers?|guests?|clients?|patients?|people|them|everyone|anyone)\s+(?:know\s+)?(?:that\s+)?/i,
  /^(?:please\s+)?(?:mention|say|explain|note)\s+(?:to\s+(?:callers?|them)\s+)?that\s+/i,
  /^(?:if|when)\s+(?:someone|anyone|a caller|callers|people|they|customers?|somebody)\s+asks?\s+(?:about|for|whether|if)\s+[^,]{1,80},\s*(?:(?:tell|say to)\s+(?:them|callers?)\s+(?:that\s+)?|say\s+(?:that\s+)?)?/i,
  /^(?:fyi|note|important|facts?|info)\s*[:—-]\s*/i,
];

function clean(sentence: string): string {
  let text = sentence.trim();
  for (const lead of LEAD_INS) text = text.replace(lead, "");
  text = text.replace(/\s+/g, " ").trim();
  if (!text) return "";
  if (!/[.!?]$/.test(text)) text += ".";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Sentences and ";"-separated parts of what the owner wrote. */
function clauses(text: string | undefined): string[] {
  if (!text?.trim()) return [];
  return splitSentences(text.replace(/\n+/g, ". "))
    .flatMap((s) => s.split(/;\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Statements the owner wrote in the instructions (not the directives about manner), as a caller may hear them. */
export function instructionFacts(assistant: Pick<AssistantPersona, "instructions">): string[] {
  const facts: string[] = [];
  for (const clause of clauses(assistant.instructions)) {
    const stripped = clean(clause);
    if (!stripped || stripped.endsWith("?")) continue;
    const leadIn = LEAD_INS.some((lead) => lead.test(clause));
    if (!leadIn && MANNER.test(clause) && !isHoursClause(clause)) continue;
    facts.push(stripped);
  }
  return facts;
}

function isHoursClause(clause: string): boolean {
  return TIME_RANGE.test(clause) || (DAY_WORD.test(clause) && HOURS_WORD.test(clause));
}

/**
 * The opening hours the owner wrote into the instructions, the greeting or the description, as one
 * statement ("We're open Tue–Sun 7am–3pm."), or null when they wrote none.
 */
export function hoursFromAssistant(assistant: Pick<AssistantPersona, "instructions" | "greeting" | "description">): string | null {
  for (const source of [assistant.instructions, assistant.greeting, assistant.description]) {
    for (const clause of clauses(source)) {
      if (!isHoursClause(clause)) continue;
      return hoursStatement(clause);
    }
  }
  return null;
}

function hoursStatement(clause: string): string {
  let text = clean(clause).replace(/[.!]+$/, "");
  const open = /\b(?:we(?:'re| are)\s+)?open(?:ed)?\b/i.exec(text);
  const hours = /\b(?:opening\s+|our\s+)?hours\s*(?::|are|—|-)\s*/i.exec(text);
  // "…, open Tue–Sun 7am–3pm" → "We're open Tue–Sun 7am–3pm"; "Hours: Mon–Fri 9–5" → "Our hours are Mon–Fri 9–5".
  if (open) text = `We're open${text.slice(open.index + open[0].length)}`;
  else if (hours) text = `Our hours are ${text.slice(hours.index + hours[0].length)}`;
  else if (!HOURS_WORD.test(text)) text = `Our hours are ${text}`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could do does for from have has how i i'd i'm if in into is it its just like me my no not of on or our " +
    "please so than that the their them then there they this to too up us was we what when where which who why will with would you your yes hi " +
    "hello hey want need get got any some about also there's you're we're i'll we'll ask asking tell know there"
  ).split(" "),
);

function stem(word: string): string {
  return word.replace(/(?:ies)$/, "y").replace(/(?:es|s)$/, "");
}

function contentWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g) ?? [])
      .filter((w) => w.length >= 3 && !STOPWORDS.has(w))
      .map(stem)
      .filter((w) => w.length >= 3),
  );
}

/** The fact that shares the most content words with what the caller said, or null when none does. */
export function relevantFact(facts: string[], text: string, exclude: (fact: string) => boolean = () => false): string | null {
  const asked = contentWords(text);
  let best: { fact: string; score: number } | null = null;
  for (const fact of facts) {
    if (exclude(fact)) continue;
    let score = 0;
    for (const word of contentWords(fact)) if (asked.has(word)) score += 1;
    if (score > 0 && (!best || score > best.score)) best = { fact, score };
  }
  return best?.fact ?? null;
}

/** True when a fact states an amount of money. */
export function statesPrice(fact: string): boolean {
  return /[$€£]\s?\d|\d\s?(?:dollars|euros|pounds|usd|eur|gbp)\b/i.test(fact);
}

/** True when a fact says where the business is. */
export function statesAddress(fact: string): boolean {
  return /\b(?:located|address|we're at|we are at|find us|directions|parking|street|st\.|avenue|ave\.|road|rd\.|suite|floor)\b/i.test(fact);
}

export function isHoursFact(fact: string): boolean {
  return isHoursClause(fact);
}
