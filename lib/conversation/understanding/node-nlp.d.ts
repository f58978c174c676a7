/** The part of node-nlp (no bundled types) that the intent model uses. */
declare module "node-nlp" {
  export type NlpClassification = { intent: string; score: number };
  export type NlpResult = { intent: string; score: number; classifications: NlpClassification[] };
  export class NlpManager {
    constructor(settings?: Record<string, unknown>);
    addDocument(locale: string, utterance: string, intent: string): void;
    train(): Promise<void>;
    process(locale: string, utterance: string): Promise<NlpResult>;
  }
}
