/**
 * Sentence boundaries for the streamed pipeline: synthesis of a sentence starts as soon as the
 * model has finished writing it. A boundary is ., ! or ? (plus closing quotes/brackets) followed by
 * whitespace — so "3.5" and "e.g.," do not split — except after common abbreviations.
 */
const ABBREVIATIONS = /\b(mr|mrs|ms|dr|st|sr|jr|prof|vs|etc|inc|ltd|co|ave|blvd|rd|no|approx|a\.m|p\.m|e\.g|i\.e|u\.s)\.$/i;

const BOUNDARY = /[.!?]+["'”’)\]]*(?=\s)/g;

/**
 * Takes complete sentences off the front of `buffer`: returns them and what remains (an unfinished
 * sentence). With `final`, the remainder counts as a sentence too.
 */
export function takeSentences(buffer: string, final = false): { sentences: string[]; rest: string } {
  const sentences: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let match = BOUNDARY.exec(buffer); match; match = BOUNDARY.exec(buffer)) {
    const end = match.index + match[0].length;
    const candidate = buffer.slice(start, end).trim();
    if (ABBREVIATIONS.test(candidate)) continue;
    if (candidate) sentences.push(candidate);
    start = end;
  }
  let rest = buffer.slice(start);
  if (final) {
    if (rest.trim()) sentences.push(rest.trim());
    rest = "";
  }
  return { sentences, rest };
}

export function splitSentences(text: string): string[] {
  return takeSentences(text, true).sentences;
}
