/**
 * The intent model: NLP.js (`@nlpjs/nlp`, the engine inside node-nlp's NlpManager) with only its
 * English and Spanish tokenizers and stemmers, trained on the phrasings in ./corpus once per
 * process, on first use. A small neural classifier over stemmed words: training takes under a
 * second of CPU (scripts/bench-nlu.ts); nothing is downloaded or written. Loading node-nlp's index
 * instead would pull in every language NLP.js has (3 s and ~110 MB per process, measured); these four
 * packages are node-nlp's own dependencies, at the versions it pins.
 */
import { containerBootstrap } from "@nlpjs/core";
import { LangEn } from "@nlpjs/lang-en-min";
import { LangEs } from "@nlpjs/lang-es";
import { Nlp } from "@nlpjs/nlp";
import { en } from "./corpus/en";
import { es } from "./corpus/es";
import type { CallerIntent, Language } from "./types";

export type ScoredIntent = { intent: CallerIntent; score: number };

const CORPORA: Record<Language, Partial<Record<CallerIntent, string[]>>> = { en, es };
/** Scores below this are noise and left out of the ranked list. */
const FLOOR = 0.05;

let trained: Promise<Nlp> | undefined;

async function train(): Promise<Nlp> {
  const container = await containerBootstrap();
  container.use(LangEn);
  container.use(LangEs);
  const nlp = new Nlp({
    container,
    languages: ["en", "es"],
    autoSave: false,
    autoLoad: false,
    forceNER: false,
    nlu: { log: false, useNoneFeature: true },
  });
  for (const [language, corpus] of Object.entries(CORPORA)) {
    for (const [intent, phrasings] of Object.entries(corpus)) {
      for (const phrasing of phrasings ?? []) nlp.addDocument(language, normaliseUtterance(phrasing), intent);
    }
  }
  await nlp.train();
  return nlp;
}

/** The trained model, trained once per process (a failed training is retried on the next call). */
export function intentModel(): Promise<Nlp> {
  if (!trained) {
    trained = train();
    trained.catch(() => {
      trained = undefined;
    });
  }
  return trained;
}

/** Normalises what speech recognition and typing leave behind, the same way for training and use. */
export function normaliseUtterance(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[“”"¿¡!?,;.]/g, " ")
      // "uh-huh" and "mm-hmm" are a yes; the other hesitation sounds carry no meaning, only noise.
      .replace(/(^|\s)(?:uh[- ]huh|mm[- ]?hmm|mhm+|ajá)(?=\s|$)/g, "$1yes")
      .replace(/(^|\s)(?:u+m+|u+h+|e+r+m*|h+m+|e+h+|e+m+|m+)(?=\s|$)/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** Every intent the model scored, best first; "None" (nothing learned fits) is "other". */
export async function classify(text: string, language: Language): Promise<ScoredIntent[]> {
  const whole = await classifyOnce(text, language);
  // A long utterance the network cannot score as a whole (it answers None with certainty: measured on
  // "…a big scratch on the door, I want to talk to the manager about this, it's Don Ray") is read
  // clause by clause, and each intent keeps its best clause's score.
  const clauses = text.split(/[,.;?!¿¡]+/).map((c) => c.trim()).filter((c) => c.split(/\s+/).length >= 2);
  if (!(whole.length === 1 && whole[0].intent === "other" && whole[0].score === 1) || clauses.length < 2) return whole;
  const best = new Map<CallerIntent, number>();
  for (const clause of clauses) {
    for (const { intent, score } of await classifyOnce(clause, language)) {
      // A clause with no request of its own ("A nombre de Morales", "it's Don Ray") says nothing about the intent.
      if (intent === "other") continue;
      best.set(intent, Math.max(score, best.get(intent) ?? 0));
    }
  }
  if (!best.size) return whole;
  const total = [...best.values()].reduce((a, b) => a + b, 0);
  return [...best].map(([intent, score]) => ({ intent, score: score / total })).sort((a, b) => b.score - a.score);
}

async function classifyOnce(text: string, language: Language): Promise<ScoredIntent[]> {
  const nlp = await intentModel();
  const utterance = normaliseUtterance(text);
  if (!utterance) return [{ intent: "other", score: 1 }];
  const result = await nlp.process(language, utterance);
  const ranked = new Map<CallerIntent, number>();
  for (const { intent, score } of result.classifications ?? []) {
    const name = intent === "None" ? "other" : (intent as CallerIntent);
    ranked.set(name, Math.max(score, ranked.get(name) ?? 0));
  }
  if (!ranked.size) return [{ intent: "other", score: 1 }];
  return [...ranked].map(([intent, score]) => ({ intent, score })).sort((a, b) => b.score - a.score);
}

/** The ranked list callers of `understand()` see: scores below a small floor are noise. */
export function aboveFloor(ranked: ScoredIntent[], keep: CallerIntent): ScoredIntent[] {
  return ranked.filter((item) => item.score >= FLOOR || item.intent === keep);
}
