/**
 * The intent model: node-nlp's NlpManager (a small neural classifier over stemmed words, with its
 * English and Spanish stemmers and tokenizers) trained on the phrasings in ./corpus once per
 * process, on first use. Training takes well under a second on a warm process (see
 * scripts/bench-nlu.ts); nothing is downloaded or written.
 */
import { NlpManager } from "node-nlp";
import { en } from "./corpus/en";
import { es } from "./corpus/es";
import type { CallerIntent, Language } from "./types";

export type ScoredIntent = { intent: CallerIntent; score: number };

const CORPORA: Record<Language, Partial<Record<CallerIntent, string[]>>> = { en, es };
/** Scores below this are noise and left out of the ranked list. */
const FLOOR = 0.05;

let trained: Promise<NlpManager> | undefined;

async function train(): Promise<NlpManager> {
  const manager = new NlpManager({
    languages: ["en", "es"],
    autoSave: false,
    autoLoad: false,
    forceNER: false,
    nlu: { log: false, useNoneFeature: true },
    ner: { builtins: [] },
    sentiment: { enabled: false },
  });
  for (const [language, corpus] of Object.entries(CORPORA)) {
    for (const [intent, phrasings] of Object.entries(corpus)) {
      for (const phrasing of phrasings ?? []) manager.addDocument(language, phrasing, intent);
    }
  }
  await manager.train();
  return manager;
}

/** The trained model, trained once per process (a failed training is retried on the next call). */
export function intentModel(): Promise<NlpManager> {
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
  return text
    .toLowerCase()
    .replace(/[“”"¿¡!?,;.]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Every intent scored above a small floor, best first; "None" (nothing learned fits) is "other". */
export async function classify(text: string, language: Language): Promise<ScoredIntent[]> {
  const manager = await intentModel();
  const utterance = normaliseUtterance(text);
  if (!utterance) return [{ intent: "other", score: 1 }];
  const result = await manager.process(language, utterance);
  const ranked: ScoredIntent[] = [];
  for (const { intent, score } of result.classifications ?? []) {
    if (score < FLOOR) continue;
    ranked.push({ intent: intent === "None" ? "other" : (intent as CallerIntent), score });
  }
  if (!ranked.length) ranked.push({ intent: "other", score: 1 });
  return ranked.sort((a, b) => b.score - a.score);
}
