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
  dientes muela no nada eso esto soy estoy somos más mas mensajes mensaje manden mande llamen quiten quite borren eliminen lista ustedes arreglan hacen tienen atienden abren cierran servicios horario dirección precio cuesta cobran gracias fuga fugas tubería agua gas emergencia robot máquina verdad alguien algo todo todos también dígale avísele esa ese las los del una uno unos unas al de la el y o en me le lo se su nos`
    .split(/\s+/)
    .filter(Boolean),
);
/** Words that are the same or near in both (they count for neither). */
const SHARED = new Set(["no", "doctor", "me", "a", "o", "y", "es", "la", "el", "de", "en", "con", "para", "hora", "ok", "se"]);
const ENGLISH_WORDS = new Set(
  `yes yeah yep sure the a an i i'm im i'd i'll i've you you're your yours my me mine we we're our us they their them
  he she his her him it it's its this that these those there here to for of and or but so if in on at by with from
  about into up out off over can could would will should shall may might must do does did don't doesn't didn't
  won't can't have has had get got go going gonna wanna want need like just also too very really please thanks
  thank hi hello hey bye goodbye okay what when where how who why which appointment call calling back tomorrow
  today tonight next last this week tuesday monday wednesday thursday friday saturday sunday morning afternoon
  evening name number phone book booking cancel move change talk speak person human real robot stop text texting
  open close closed hours price cost much many how fix broken leak water pipe tooth teeth hair cut cleaning someone
  somebody anyone anything something nothing is are was were be been am not no yes let make take give tell ask`
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

  // Trigram statistics need some text; on a short phrase they are a weak vote, on a long one a strong one.
  const letters = words.join("").length;
  if (letters >= 20) {
    const [first, second] = francAll(text, { only: ["eng", "spa"], minLength: 10 });
    if (first && first[0] !== "und") {
      const margin = second ? first[1] - second[1] : 1;
      const weight = (margin > 0.1 ? 1 : 0.5) * Math.min(3, letters / 30);
      if (first[0] === "spa") spanish += weight;
      else english += weight;
    }
  }
  if (spanish === english) return prior ?? "en";
  if (prior === "es" && english <= spanish + 1 && english < 2) return "es";
  return spanish > english ? "es" : "en";
}
