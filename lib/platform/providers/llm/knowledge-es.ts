import type { BusinessInfo, Intent, Reply } from "./interface";
import { mentionedService, spokenPrice } from "./knowledge";

/**
 * The local responder's answers to a Spanish caller's questions about the business — hours, address,
 * prices, services — in Spanish, from the same BusinessInfo as the English answers (./knowledge.ts).
 * What it does not know it says so, never a guess, and the question is a knowledge gap for the owner.
 * null: not one of these questions (the English path answers, or the booking dialogue and the engine
 * already spoke Spanish).
 */

const DAYS_ES: Record<string, string> = {
  monday: "lunes",
  tuesday: "martes",
  wednesday: "miércoles",
  thursday: "jueves",
  friday: "viernes",
  saturday: "sábado",
  sunday: "domingo",
};

const HOURS = /\b(horas?|horario|abren|abierto|abiertos|cierran|cerrado|cerrados|atienden)\b/i;
const WHERE = /\b(d[oó]nde|direcci[oó]n|ubicad[oa]s?|ubicaci[oó]n|c[oó]mo llego)\b/i;
const PRICE = /\b(cu[aá]nto|precio|precios|cuesta|cuestan|cobran|cobra|tarifa)\b/i;
const SERVICES = /\b(servicios|ofrecen|qu[eé] hacen)\b/i;
const CLOSER = "¿Puedo ayudarle con algo más?";

/** Words only a Spanish question uses; two of them (or an opening "¿") make the question Spanish. */
const SPANISH_WORDS = /(?:^|[\s¿¡])(qu[eé]|cu[aá]nto|cu[aá]ndo|d[oó]nde|c[oó]mo|hora|horario|abren|cierran|est[aá]n|ustedes|tienen|hola|buenas|buenos|por favor|precio|cuesta|el|la|los|las|de|para|una?|es|hay|ofrecen|direcci[oó]n|abierto|cerrado|domingo|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|mañana|hoy)(?=[\s?.,!]|$)/giu;
const ENGLISH_WORDS = /\b(the|what|when|where|how|you|your|are|is|do|does|open|hours|much|price|can|i)\b/gi;

/** Whether a question is in Spanish (the caller's own words; the conversation may have started in either). */
export function looksSpanish(text: string): boolean {
  const spanish = text.match(SPANISH_WORDS)?.length ?? 0;
  const english = text.match(ENGLISH_WORDS)?.length ?? 0;
  return (text.includes("¿") || spanish >= 2) && spanish > english;
}

/** What Spanish callers call the services businesses name in English ("una limpieza" → "cleaning"). */
const SPANISH_SERVICE_WORDS: [RegExp, string][] = [
  [/\blimpieza\b/i, "cleaning"],
  [/\bcorte\b/i, "haircut"],
  [/\b(tinte|color)\b/i, "color"],
  [/\bexamen\b/i, "exam"],
  [/\bconsulta\b/i, "consultation"],
  [/\bvacun\w*/i, "vaccination vaccine"],
  [/\bblanqueamiento\b/i, "whitening"],
  [/\bempaste\b/i, "filling"],
  [/\bdesag[uü]e\b/i, "drain"],
  [/\bcalentador\b/i, "water heater"],
  [/\bcambio de aceite\b/i, "oil change"],
  [/\bfrenos?\b/i, "brake"],
  [/\bevaluaci[oó]n\b/i, "assessment evaluation"],
  [/\bmasaje\b/i, "massage"],
  [/\b(revisi[oó]n|chequeo)\b/i, "checkup inspection exam"],
  [/\bdiagn[oó]stico\b/i, "diagnostic"],
  [/\b(llantas?|neum[aá]ticos?|rotaci[oó]n)\b/i, "tire rotation"],
  [/\b(aire acondicionado|afinaci[oó]n)\b/i, "ac tune-up"],
  [/\b(calefacci[oó]n|calefactor|horno)\b/i, "furnace"],
  [/\bseguimiento\b/i, "follow-up"],
  [/\bpeinado\b/i, "blowout"],
];

function fold(word: string): string {
  return word
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** "4 PM–9 PM" → "de 4 PM a 9 PM" ("y" between several spans); "closed" → null. */
function spanishHours(hours: string): string | null {
  if (/closed/i.test(hours)) return null;
  return hours
    .split(/\s+and\s+|,\s*/)
    .map((span) => {
      const [from, to] = span.split(/\s*[–-]\s*/);
      return to ? `de ${from} a ${to}` : span;
    })
    .join(" y ");
}

function hoursAnswer(text: string, profile: BusinessInfo): Reply | null {
  const said = fold(text);
  const days = profile.nextDays ?? [];
  const asked = days.filter((d) => {
    if (d.label === "today" && /\bhoy\b/.test(said)) return true;
    if (d.label === "tomorrow" && /\bmanana\b/.test(said) && !/\bde la manana\b/.test(said)) return true;
    const name = DAYS_ES[d.weekday.toLowerCase()];
    return Boolean(name && new RegExp(`\\b${fold(name)}s?\\b`).test(said));
  });
  if (asked.length) {
    const lines = asked.map((d) => {
      const day = d.label === "today" ? "Hoy" : d.label === "tomorrow" ? "Mañana" : `El ${DAYS_ES[d.weekday.toLowerCase()] ?? d.weekday}`;
      const open = spanishHours(d.hours);
      return open ? `${day} abrimos ${open}.` : `${day} estamos cerrados.`;
    });
    return { text: `${lines.join(" ")} ${CLOSER}`, intent: "hours" };
  }
  if (profile.weeklyHours?.length) {
    const week = profile.weeklyHours.map((d) => {
      const open = spanishHours(d.hours);
      return `${DAYS_ES[d.day.toLowerCase()] ?? d.day} ${open ?? "cerrado"}`;
    });
    return { text: `Nuestro horario: ${week.join("; ")}. ${CLOSER}`, intent: "hours" };
  }
  return null;
}

/** A question the business's knowledge does not answer, asked in Spanish: said so in Spanish, and noted. */
export function gapInSpanish(business: string): string {
  return `No tengo esa información a mano, así que no voy a adivinar. He anotado su pregunta para el equipo de ${business}; si quiere una respuesta, puedo tomar su nombre y número para que le devuelvan la llamada. ${CLOSER}`;
}

export function answerInSpanish(text: string, profile: BusinessInfo): Reply | null {
  if (HOURS.test(text) && !PRICE.test(text)) {
    const hours = hoursAnswer(text, profile);
    if (hours) return hours;
  }
  if (WHERE.test(text) && profile.address) return { text: `Estamos en ${profile.address}. ${CLOSER}`, intent: "other" };
  const details = profile.serviceDetails ?? [];
  const names = details.length ? details.map((s) => s.name) : (profile.services ?? []);
  if (PRICE.test(text)) {
    const english = SPANISH_SERVICE_WORDS.filter(([word]) => word.test(text)).map(([, name]) => name).join(" ");
    const service = mentionedService(`${text} ${english}`, details.map((detail) => ({ name: detail.name, detail })))?.detail;
    if (service?.price) return { text: `${service.name}: ${spokenPrice(service.price) === "free" ? "gratis" : service.price}. ${CLOSER}`, intent: "pricing" };
    return {
      text: `No tengo ese precio a mano, así que no voy a adivinar. He anotado su pregunta para el equipo; si quiere, puedo tomar su nombre y número. ${CLOSER}`,
      intent: "pricing",
      knowledgeGap: { question: text.trim().slice(0, 300) },
    };
  }
  if (SERVICES.test(text) && names.length) return { text: `Ofrecemos ${names.join(", ")}. ¿Quiere reservar una cita?`, intent: "other" satisfies Intent };
  return null;
}
