/**
 * Text as flite reads it best. flite takes its input as one command-line argument and knows
 * English text only: plain ASCII on one line. Accents are dropped (Café → Cafe), dashes between
 * words become "to" (Mon–Fri, 8 AM–6 PM), typographic quotes become plain ones, weekday
 * abbreviations are spelled out (flite reads "Mon" as a word) and "&" is read as "and".
 */
const WEEKDAYS: Record<string, string> = {
  Mon: "Monday",
  Tue: "Tuesday",
  Tues: "Tuesday",
  Wed: "Wednesday",
  Thu: "Thursday",
  Thur: "Thursday",
  Thurs: "Thursday",
  Fri: "Friday",
  Sat: "Saturday",
  Sun: "Sunday",
};

export function speakableText(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/(\w)\s*[–—]\s*(\w)/g, "$1 to $2")
      .replace(/\b(Mon|Tues?|Wed|Thu(?:rs?)?|Fri)\b(?!')/g, (_, day: string) => WEEKDAYS[day])
      // "Sat" and "Sun" are words too: only where they stand for days.
      .replace(/\b(Sat|Sun)\b(?=\s+(?:to|and|through|closed|open|only)\b|\s+\d|\s*[-,/;.:]|\s*$)/g, (_, day: string) => WEEKDAYS[day])
      .replace(/\s*&\s*/g, " and ")
      .replace(/[–—]/g, ", ")
      .replace(/[‘’]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/…/g, "...")
      .replace(/[^\x20-\x7e]/g, " ")
      .replace(/\s+/g, " ")
      .trim() || "."
  );
}
