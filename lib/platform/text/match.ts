/**
 * Small, deterministic text matching for the assistant's knowledge: which FAQ a caller's question
 * is, which service they named, whether they asked a question at all. Words are lower-cased, common
 * words dropped, a few endings stripped ("cleanings" → "clean") and a few synonyms folded ("take" →
 * "accept"), then compared as sets. No model, no network: the same words always match the same way.
 */

const STOPWORDS = new Set(
  (
    "a an the and or but if of to in on at by for with from into about as is are was were be been being am do does did doing " +
    "i me my mine we us our ours you your yours he she it its they them their this that these those there here what which who whom " +
    "whose when where why how can could would should will shall may might must have has had having not no yes so too very just " +
    "also any some all each every please thanks thank hi hello hey ok okay um uh like get got need want wanted know tell let " +
    "im i'm id i'd ive i've youre you're dont don't does doesn't isn't arent aren't one ones much many more most other else " +
    "something anything thing things really actually maybe"
  ).split(/\s+/),
);

/** Folded synonyms: the caller's word → the word an FAQ or a service is likely to use. */
const SYNONYMS: Record<string, string> = {
  // What callers say for what businesses write.
  checkup: "exam",
  "check-up": "exam",
  physical: "exam",
  examination: "exam",
  consult: "consultation",
  take: "accept",
  taking: "accept",
  accepted: "accept",
  cost: "price",
  costs: "price",
  fee: "price",
  fees: "price",
  charge: "price",
  charges: "price",
  pricing: "price",
  prices: "price",
  rate: "price",
  rates: "price",
  park: "parking",
  car: "parking",
  opening: "open",
  hour: "hours",
  kid: "child",
  kids: "child",
  children: "child",
  pet: "dog",
  pets: "dog",
  dogs: "dog",
  wheelchair: "accessible",
  accessibility: "accessible",
  card: "payment",
  cards: "payment",
  pay: "payment",
  paying: "payment",
  cash: "payment",
  refunds: "refund",
  cancel: "cancellation",
  cancelling: "cancellation",
  canceling: "cancellation",
  cancellations: "cancellation",
  appointments: "appointment",
  appt: "appointment",
  reschedule: "appointment",
  shots: "vaccine",
  shot: "vaccine",
  jabs: "vaccine",
  vaccination: "vaccine",
  vaccinations: "vaccine",
  immunizations: "vaccine",
  products: "supplies",
  equipment: "supplies",
  located: "location",
  address: "location",
  directions: "location",
};

/** A rough stem: enough to make plurals and -ing forms meet ("cleanings", "cleaning", "clean"). */
export function stem(word: string): string {
  let w = word;
  // Plurals first ("cleanings" → "cleaning"), then -ing ("cleaning" → "clean").
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) {
    w = w.slice(0, -3);
    if (/([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1); // "cancelling" → "cancel"
  }
  return w;
}

/** Content words of a text, folded and stemmed, as a set. */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").split(/[^a-z0-9']+/)) {
    const word = raw.replace(/^'+|'+$/g, "");
    if (!word || STOPWORDS.has(word)) continue;
    const folded = SYNONYMS[word] ?? word;
    out.add(stem(folded));
  }
  return out;
}

/** How well `candidate` covers `query`: the F1 of their shared keywords (0–1). */
export function overlapScore(query: Set<string>, candidate: Set<string>): number {
  if (query.size === 0 || candidate.size === 0) return 0;
  let shared = 0;
  for (const w of query) if (candidate.has(w)) shared++;
  if (shared === 0) return 0;
  const precision = shared / query.size;
  const recall = shared / candidate.size;
  return (2 * precision * recall) / (precision + recall);
}

/** The best-scoring candidate at or above `threshold`, or null. Ties go to the earlier candidate. */
export function bestMatch<T>(query: string, candidates: T[], text: (c: T) => string, threshold: number): { item: T; score: number } | null {
  const q = keywords(query);
  let best: { item: T; score: number } | null = null;
  for (const item of candidates) {
    const score = overlapScore(q, keywords(text(item)));
    if (score >= threshold && (!best || score > best.score)) best = { item, score };
  }
  return best;
}

const QUESTION_START =
  /^(?:(?:hi|hello|hey|yes|yeah|ok|okay|so|and|also|um|uh|quick question|one more thing)[,!.]?\s+)*(?:who|what|what's|whats|when|where|where's|why|how|which|whose|do|does|did|is|isn't|are|aren't|can|could|will|would|should|shall|may|might|have|has|was|were|any)\b/i;
const INDIRECT_QUESTION = /\b(i (?:want|wanted|need|needed|would like|'d like|was wondering|wonder) (?:to know|to ask|if|whether)|wondering (?:if|whether)|tell me (?:if|whether|about|what|when|where|how)|can you tell me|could you tell me|do you know)\b/i;

/** True when the caller asked something (a question mark, a question word first, or "I wanted to know…"). */
export function isQuestion(text: string): boolean {
  const t = text.trim();
  if (!t) return false;
  if (t.includes("?")) return true;
  return QUESTION_START.test(t) || INDIRECT_QUESTION.test(t);
}

/** A question reduced to a key, so the same question asked twice is one knowledge gap. */
export function questionKey(text: string): string {
  const words = [...keywords(text)].sort();
  if (words.length > 0) return words.join(" ");
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}
