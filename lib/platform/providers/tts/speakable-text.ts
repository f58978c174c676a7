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

/**
 * Text as eSpeak NG's Spanish voice reads it: accents, ñ, ¿ and ¡ are kept (they change the
 * pronunciation and the intonation); on one line, with plain quotes, "&" read as "y" and a dash
 * between words or numbers as "a" ("9–5" → "9 a 5"). Other characters are eSpeak's to read.
 */
export function speakableSpanishText(text: string): string {
  return (
    text
      .normalize("NFC")
      .replace(/(\w)\s*[–—]\s*(\w)/g, "$1 a $2")
      .replace(/\s*&\s*/g, " y ")
      .replace(/[–—]/g, ", ")
      .replace(/[‘’]/g, "'")
      .replace(/[“”«»]/g, '"')
      .replace(/…/g, "...")
      .replace(/[\p{Cc}\p{Cf}]/gu, " ")
      .replace(/\s+/g, " ")
      .trim() || "."
  );
}
