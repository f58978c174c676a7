/** The parts of NLP.js (no bundled types) that the intent model uses. */
declare module "@nlpjs/core" {
  export type Container = { use(plugin: unknown): void };
  export function containerBootstrap(): Promise<Container>;
}
declare module "@nlpjs/lang-en-min" {
  export const LangEn: unknown;
}
declare module "@nlpjs/lang-es" {
  export const LangEs: unknown;
}
declare module "@nlpjs/nlp" {
  export type NlpClassification = { intent: string; score: number };
  export type NlpResult = { intent: string; score: number; classifications?: NlpClassification[] };
  export class Nlp {
    constructor(settings?: Record<string, unknown>);
    addDocument(locale: string, utterance: string, intent: string): void;
    train(): Promise<void>;
    process(locale: string, utterance: string): Promise<NlpResult>;
  }
}
