/**
 * English or Spanish. franc-min (trigram statistics) decides longer utterances; short ones ("sí",
 * "ok", "Tuesday") carry too few trigrams for it, so they are English unless they contain words
 * only Spanish has, and the conversation's language so far is the prior.
 */
import { francAll } from "franc-min";
import type { Language } from "./types";

/** Words a Spanish speaker says that an English speaker does not (accents optional: ASR drops them). */
const SPANISH_WORDS = new Set(
  `sí si hola buenas buenos días dias tardes noches gracias muchas por favor quiero quisiera necesito puedo
  puede podría podria cita citas hora horas mañana manana tarde noche hoy ayer semana lunes martes miércoles
  miercoles jueves viernes sábado sabado domingo llamo llamar llámeme llameme llamada número numero teléfono
  telefono nombre señor señora señorita mi mis tengo tiene tienen hay está esta estoy están es usted ustedes
  dónde donde cuándo cuando cuánto cuanto cuesta precio abierto abren cierran dirección direccion con para
  pero también tambien ahora ya vale claro bueno adiós adios hasta luego perdón perdon qué que cómo como
  quién quien él ella hablar hablo habla persona humano dentista doctor doctora fuga agua urgente sangre
  duele dolor emergencia dejar mensaje recado cancelar cambiar mover reservar hacer corte pelo limpieza
  dientes muela no nada eso esto esa ese las los del una uno unos unas al de la el y o en me le lo se su nos`
    .split(/\s+/)
    .filter(Boolean),
);
/** Words that are the same or near in both (they count for neither). */
const SHARED = new Set(["no", "doctor", "me", "a", "o", "y", "es", "la", "el", "de", "en", "con", "para", "hora", "ok", "si", "se"]);
const ENGLISH_WORDS = new Set(
  `yes yeah yep sure the a an i i'm im you your my me is are was it it's its this that to for of and or in on at
  can could would will please thanks thank hi hello hey bye goodbye okay ok what when where how who why need want
  appointment call back tomorrow today next tuesday monday wednesday thursday friday saturday sunday morning
  afternoon evening name number phone book cancel move talk person human real robot stop text`
    .split(/\s+/)
    .filter(Boolean),
);

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}'\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
}

export function detectLanguage(text: string, prior?: Language): Language {
  const words = tokens(text);
  if (words.length === 0) return prior ?? "en";
  let spanish = 0;
  let english = 0;
  for (const word of words) {
    if (/[ñáéíóúü¿¡]/.test(word)) spanish += 2;
    else if (SPANISH_WORDS.has(word) && !SHARED.has(word)) spanish += 1;
    if (ENGLISH_WORDS.has(word) && !SHARED.has(word)) english += 1;
  }
  if (/[¿¡ñ]/.test(text)) spanish += 2;

  const letters = words.join("").length;
  if (letters >= 20) {
    const [first, second] = francAll(text, { only: ["eng", "spa"], minLength: 10 });
    if (first && first[0] !== "und") {
      const margin = second ? first[1] - second[1] : 1;
      const francSays: Language = first[0] === "spa" ? "es" : "en";
      // franc's scores are 1 for the best and below for the rest: a wide margin outweighs a word or two.
      const weight = margin > 0.1 ? 3 : 1.5;
      if (francSays === "es") spanish += weight;
      else english += weight;
    }
  }
  if (spanish === english) return prior ?? "en";
  if (prior === "es" && english <= spanish + 1 && english < 2) return "es";
  return spanish > english ? "es" : "en";
}
