import { franc } from "franc-min";

/**
 * The language a line of the assistant is spoken in by the offline synthesizer: "es" (espeak-ng's
 * Latin American Spanish voice) or "en" (flite), English unless the text is clearly Spanish.
 *
 * franc-min alone cannot be trusted on a phone reply: it answers "und" below ten letters
 * ("Gracias.", "Sí."), and on short English lines with a Spanish name it can say Spanish ("Is
 * Dr. Peña in today?"). So common function words of each language are counted first, with ¿ ¡
 * and accented letters as Spanish evidence (a line needs a Spanish word or ¿ ¡ to be Spanish at
 * all); franc (restricted to English and Spanish, a few milliseconds at most) is asked only when
 * the words leave it close. Ties go to English.
 */
export type SpeechLanguage = "en" | "es";

const SPANISH_WORDS = new Set(
  (
    "de del la el los las que qué y en por para con un una unos unas su sus es está están estoy son lo le les se usted ustedes " +
    "nos mi mis muy pero también hoy hay gracias hola adiós sí buenos buenas días tardes noches cita citas mañana tarde " +
    "puedo puede podemos ayudarle ayudar quiero quiere quisiera necesito necesita llamar llamada llamó cómo cuándo dónde " +
    "cuál cuánto bien favor momento número nombre hora horas lunes martes miércoles jueves viernes sábado domingo perfecto " +
    "claro vale tenga día esta este eso esto ese cuando donde porque ya después antes ahora mensaje mensajes doctor doctora"
  ).split(" "),
);

// Words Spanish also has ("a", "me", "no", "son", "he") count for neither.
const ENGLISH_WORDS = new Set(
  (
    "the and you your to of is are was for we our us i it it's in on at with this that can could would will have has be " +
    "please thanks thank hello hi yes bye goodbye what how when where who which do does not just help calling call there " +
    "here sure okay ok today tomorrow appointment booked book one moment let i'm we're you're i'll we'll an by from"
  ).split(" "),
);

/** Beyond this difference in counted words the words decide alone (franc is not asked). */
const DECISIVE_WORDS = 3;
/** franc is asked only from this many letters on (below, it guesses). */
const FRANC_MIN_LETTERS = 20;
/** franc's verdict counts as this many words. */
const FRANC_WEIGHT = 2;

function normalizeLanguage(language: string | undefined): SpeechLanguage | null {
  if (!language) return null;
  return /^(es|spa)(\b|[-_])/i.test(language) ? "es" : "en";
}

/**
 * "es" when `text` is Spanish, else "en". An explicit `language` (a BCP 47 tag such as "es-MX",
 * or "en") wins; any language other than Spanish is spoken by the default (English) voice.
 */
export function speechLanguage(text: string, language?: string): SpeechLanguage {
  const explicit = normalizeLanguage(language);
  if (explicit) return explicit;
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  let spanish = 0;
  let english = 0;
  for (const word of words) {
    if (SPANISH_WORDS.has(word)) spanish += 1;
    else if (ENGLISH_WORDS.has(word)) english += 1;
  }
  if (/[¿¡]/.test(text)) spanish += 2;
  // Without a Spanish word or ¿ ¡ the line is English: an accent alone is a name ("Café", "José"), and
  // franc calls terse English Spanish ("Please enter a valid email").
  if (spanish === 0) return "en";
  if (/[ñáéíóú]/i.test(text)) spanish += 1;
  if (Math.abs(spanish - english) < DECISIVE_WORDS && (text.match(/\p{L}/gu)?.length ?? 0) >= FRANC_MIN_LETTERS) {
    const verdict = franc(text, { only: ["eng", "spa"] });
    if (verdict === "spa") spanish += FRANC_WEIGHT;
    else if (verdict === "eng") english += FRANC_WEIGHT;
  }
  return spanish > english ? "es" : "en";
}
