/**
 * What a caller named besides a day: their phone number (libphonenumber-js, after spoken digits
 * become digits), their own name, a service of the business (fuzzy, from its list) and a person at
 * the business (by name or by a role word such as "the dentist").
 */
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import type { Language } from "./types";

/** A word → value table that answers nothing for "constructor", "__proto__" and the like. */
function wordMap<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

const DIGIT_WORDS: Record<string, string> = wordMap({
  zero: "0", oh: "0", o: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9",
  cero: "0", uno: "1", una: "1", dos: "2", tres: "3", cuatro: "4", cinco: "5", seis: "6", siete: "7", ocho: "8", nueve: "9",
});
/** Numbers said in pairs ("four fifteen", "fifty five", "twenty one hundred"). */
const TEENS: Record<string, string> = wordMap({
  ten: "10", eleven: "11", twelve: "12", thirteen: "13", fourteen: "14", fifteen: "15", sixteen: "16", seventeen: "17",
  eighteen: "18", nineteen: "19", diez: "10", once: "11", doce: "12", trece: "13", catorce: "14", quince: "15",
  dieciséis: "16", dieciseis: "16", diecisiete: "17", dieciocho: "18", diecinueve: "19",
});
const TENS: Record<string, string> = wordMap({
  twenty: "2", thirty: "3", forty: "4", fifty: "5", sixty: "6", seventy: "7", eighty: "8", ninety: "9",
  veinte: "2", treinta: "3", cuarenta: "4", cincuenta: "5", sesenta: "6", setenta: "7", ochenta: "8", noventa: "9",
});
const MULTIPLIERS: Record<string, number> = wordMap({ double: 2, triple: 3, doble: 2 });
/** Words that may sit inside a spoken number without ending it. */
const NUMBER_GLUE = new Set(["dash", "hyphen", "and", "then", "y", "guion", "guión", "luego"]);

function isNumberWord(word: string | undefined): boolean {
  if (word === undefined) return false;
  const lower = word.toLowerCase();
  return DIGIT_WORDS[lower] !== undefined || TEENS[lower] !== undefined || TENS[lower] !== undefined || /^\+?\d[\d-]*$/.test(lower);
}

/**
 * Spoken digits → digits: "five five five one two three four" → "5551234", "double five" → "55",
 * "four fifteen" → "415", "oh one hundred" → "0100". Only runs of number words are rewritten, so
 * "someone" or "no one" stay words.
 */
export function spokenDigitsToText(text: string): string {
  const tokens = text.replace(/[(),.]/g, " ").split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let run: string[] = [];
  let pendingMultiplier = 1;
  const flush = () => {
    if (run.length) out.push(run.join(""));
    run = [];
    pendingMultiplier = 1;
  };
  const push = (digits: string) => {
    run.push(digits.repeat(pendingMultiplier));
    pendingMultiplier = 1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i];
    const word = raw.toLowerCase();
    const inRun = run.length > 0;
    const next = tokens[i + 1]?.toLowerCase();
    const nextIsDigit = isNumberWord(next);
    if (/^\+?[\d-]+$/.test(word)) {
      push(word.replace(/-/g, ""));
      continue;
    }
    if ((word === "hundred" || word === "cien") && inRun) {
      run.push("00");
      continue;
    }
    if (word === "thousand" && inRun) {
      run.push("000");
      continue;
    }
    if (TEENS[word] !== undefined && (inRun || nextIsDigit)) {
      push(TEENS[word]);
      continue;
    }
    if (TENS[word] !== undefined && (inRun || nextIsDigit)) {
      const unit = next === "y" && isNumberWord(tokens[i + 2]) ? tokens[i + 2].toLowerCase() : next;
      const unitDigit = unit !== undefined && DIGIT_WORDS[unit] !== undefined && unit !== "oh" && unit !== "o" && unit !== "zero" && unit !== "cero" ? DIGIT_WORDS[unit] : undefined;
      if (unitDigit !== undefined) {
        push(TENS[word] + unitDigit);
        i += unit === next ? 1 : 2;
      } else push(`${TENS[word]}0`);
      continue;
    }
    const digit = DIGIT_WORDS[word];
    // "o"/"oh"/"one" and "una" are words too: they count as digits only next to other digits.
    const ambiguous = word === "o" || word === "oh" || word === "una" || word === "uno" || word === "one";
    if (digit !== undefined && (!ambiguous || inRun || nextIsDigit)) {
      push(digit);
      continue;
    }
    if (MULTIPLIERS[word] && nextIsDigit) {
      pendingMultiplier = MULTIPLIERS[word];
      continue;
    }
    if (inRun && NUMBER_GLUE.has(word) && nextIsDigit) continue;
    flush();
    out.push(raw);
  }
  flush();
  return out.join(" ");
}

/** A phone number said as digits or words, as E.164; the business's country is the default region. */
export function extractPhone(text: string, region: CountryCode = "US"): string | undefined {
  const digitsText = spokenDigitsToText(text.replace(/\barea code\b/gi, " "));
  const candidates = digitsText.match(/\+?\d[\d\s-]{5,}\d/g) ?? [];
  for (const candidate of candidates) {
    const compact = candidate.replace(/[\s-]/g, "");
    // A North American number needs its area code; elsewhere national numbers are 8–9 digits and up.
    const fewest = compact.startsWith("+") ? 8 : region === "US" || region === "CA" ? 10 : 8;
    if (compact.replace(/\D/g, "").length < fewest) continue;
    const number = parsePhoneNumberFromString(compact, region);
    if (number?.isPossible()) return number.number;
  }
  return undefined;
}

/** Words that end a name ("this is Tom calling about…") or show the phrase was not a name at all. */
const NOT_NAME = new Set(
  `a an the and or but so if then than just calling call called about from with without for to on in at into of off
  by up out over under here there speaking again um uh er yeah yes yep no nope not sure fine good great ok okay alright
  well really very still also only even that this these those it is was were be been being am are i i'm im i'd i'll
  i've me my mine myself you you're your yours we we're our us they they're their them he he's she she's his her
  him its what when where why how who which whose please thanks thank looking wondering trying hoping going gonna
  wanna gotta need needs want wants like would could should can can't cannot won't do does did don't didn't
  doesn't have has had having get got getting make made take give tell told ask asked said say see saw know think
  let let's try come came go went regarding hi hello hey morning afternoon evening night tomorrow today tonight
  yesterday monday tuesday wednesday thursday friday saturday sunday week weekend available busy late early ready
  done back interested sorry afraid glad happy new returning existing patient customer client appointment booking
  emergency urgent correct right wrong true false robot human person real bot machine someone somebody anyone
  anybody everyone something anything nothing everything one two three four five six seven eight nine ten all any
  some more most other another same such own few many much lot bit little there's here's that's what's it's who's
  because since while until after before as actually basically literally probably maybe perhaps now soon later
  still already yet too either neither both each every again calling phoning texting bye goodbye thanks cheers
  hold wait what huh pardon sorry stop cancel help nevermind whatever
  free home outside inside sick hurt bleeding worried concerned confused curious old currently away flexible open
  unable able planning thinking finished tired scared upset unhappy angry frustrated disappointed satisfied pleased
  broken bad worse worst terrible awful cold hot wet flooded flooding clogged stuck important serious quick easy
  complicated weird strange noisy dripping leaking gone possible impossible fixed working off dead low high
  calling returning following checking confirming reaching
  honestly seriously totally absolutely completely extremely super kinda pretty truly definitely genuinely so
  de la el los las un una y o con para por que qué en es soy yo mi me llamo habla hola buenas buenos gracias sí si
  señor señora llamando quería quisiera necesito quiero tengo estoy voy puedo le lo se su sus nos del al pero
  adiós adios chao perdón perdon cómo como espere ayuda`
    .split(/\s+/)
    .filter(Boolean),
);

const NAME_LEADS: Record<Language, RegExp[]> = {
  en: [
    /\bmy name(?:'s| is)\s+(.+)/i,
    // "His name's Biscuit", "my dog's name is Max": someone else's name, not the caller's.
    /(?<!\b(?:his|her|their|its|our|your|[\p{L}]+'s)\s+)\bname(?:'s| is)\s+(.+)/iu,
    /\bfirst name(?:'s| is)?\s+(.+)/i,
    /\bthis is\s+(.+)/i,
    /\bit(?:'s| is)\s+(.+)/i,
    /\bi(?:'m| am)\s+(.+)/i,
    /\bcall me\s+(.+)/i,
    /\b(?:you can put|put it under|under the name|under)\s+(.+)/i,
  ],
  es: [/\bme llamo\s+(.+)/i, /\bmi nombre es\s+(.+)/i, /\ble habla\s+(.+)/i, /\bhabla\s+(.+)/i, /\bsoy\s+(.+)/i, /\ba nombre de\s+(.+)/i],
};

/** The leads that can only introduce the caller's full name. */
const EXPLICIT_NAME_LEADS = new Set<RegExp>([NAME_LEADS.en[0], NAME_LEADS.en[1], NAME_LEADS.es[0], NAME_LEADS.es[1]]);
/** Words that end an utterance after a first name without being a surname. */
const TRAILING_NOT_A_SURNAME = new Set("here speaking please thanks thank calling again too also though then now today tomorrow bye gracias por favor aquí hoy mañana".split(" "));

function titleCase(word: string): string {
  return word
    .split(/([-'])/)
    .map((part) => (part.length > 1 || /\p{L}/u.test(part) ? part[0].toLocaleUpperCase() + part.slice(1).toLocaleLowerCase() : part))
    .join("");
}

/** Courtesy titles before a name: skipped ("la señora Martínez" → "Martínez"). */
const HONORIFICS = new Set(["dr", "doctor", "doctora", "mr", "mrs", "ms", "miss", "mister", "señor", "señora", "señorita", "sr", "sra", "srta", "don", "doña"]);

/**
 * Up to three name-like words from the start of `rest`. Letters spelled out one by one are one
 * word ("T O M" → "Tom"; "Baker, B A K E R" → "Baker").
 */
function nameWords(rest: string, max = 3): string | undefined {
  const raw = rest
    .replace(/[.,!?;:]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (/^\p{L}$/u.test(raw[i]) && /^\p{L}$/u.test(raw[i + 1] ?? "")) {
      let spelled = "";
      while (i < raw.length && /^\p{L}$/u.test(raw[i])) spelled += raw[i++];
      i -= 1;
      if (words.at(-1)?.toLowerCase() !== spelled.toLowerCase()) words.push(spelled);
    } else words.push(raw[i]);
  }
  while (words.length && (HONORIFICS.has(words[0].toLowerCase()) || words[0].toLowerCase() === "la" || words[0].toLowerCase() === "el") && words.length > 1) {
    words.shift();
  }
  const taken: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (NOT_NAME.has(lower) || HONORIFICS.has(lower) || /\d/.test(word) || !/^[\p{L}'-]+$/u.test(word)) break;
    // "Tom's wife", "Dr. Smith's office": someone else's name.
    if (/'s$/.test(lower)) break;
    if (lower.endsWith("ing") && lower.length > 5) break;
    taken.push(titleCase(word));
    if (taken.length === max) break;
  }
  return taken.length ? taken.join(" ") : undefined;
}

const LEADING = /^(?:(?:yeah|yes|sure|ok(?:ay)?|so|well|oh|hi|hello|hey|sí|si|pues|bueno|hola)[\s,.]+)+/i;
const HESITATIONS = /(^|\s)(?:u+m+|u+h+|e+r+m*|h+m+|e+h+|e+m+)(?=[\s,.]|$)[,.]?/gi;
/** "Tom Baker here", "Ana speaking". */
const NAME_FIRST = /^([\p{L}'-]+(?:\s+[\p{L}'-]+)?)\s+(?:here|speaking)\b/iu;

/** Every match of a lead, left to right (each match's group runs to the end of the words). */
function matchesOf(lead: RegExp, said: string): RegExpExecArray[] {
  const global = new RegExp(lead.source, lead.flags.includes("g") ? lead.flags : `${lead.flags}g`);
  const out: RegExpExecArray[] = [];
  for (let match = global.exec(said); match; match = global.exec(said)) {
    out.push(match);
    // The group runs to the end: search again right after where this match began.
    global.lastIndex = match.index + 1;
  }
  return out;
}

/** The caller's own name: "this is Tom Baker", "my name's Ana", "me llamo Ana López"; a bare name when asked. */
export function extractName(text: string, language: Language, expectingName: boolean): string | undefined {
  // "It's Siobhan, S I O B H A N, last name Kerr": the surname follows the first name.
  const said = text
    .replace(HESITATIONS, " ")
    .replace(/[,.]?\s*(?:and\s+)?(?:my\s+|the\s+)?(?:last|sur|family)\s*name(?:\s+is|'s)?\s+(?=\p{L})/giu, (m: string, offset: number, whole: string) =>
      /\b(?:it'?s|this is|i'?m|i am|my name(?:'s| is)|name'?s|first name|me llamo|soy)\b/i.test(whole.slice(0, offset)) ? " " : m,
    )
    .replace(/\s+/g, " ")
    .trim()
    .replace(LEADING, "");
  const leads = [...NAME_LEADS[language], ...NAME_LEADS[language === "en" ? "es" : "en"]];
  for (const lead of leads) {
    // "I'm honestly really upset about this. I'm Rachel Dunn": a lead whose words are no name is tried again further on.
    for (const match of matchesOf(lead, said)) {
    const name = nameWords(match[1]);
    // "…name is Omar Said": after an explicit "my name is", the one word that ends the utterance is the
    // surname even when it is also a common word ("Said", "Way", "Love") — not a filler or a courtesy.
    if (name && !name.includes(" ") && EXPLICIT_NAME_LEADS.has(lead)) {
      const rest = match[1].trim().replace(/[.!?]+$/, "").split(/\s+/);
      const last = rest[1]?.toLowerCase();
      if (rest.length === 2 && last && /^[\p{L}'-]{2,}$/u.test(last) && !TRAILING_NOT_A_SURNAME.has(last)) return `${name} ${titleCase(rest[1])}`;
    }
    if (name) return name;
    }
  }
  const first = NAME_FIRST.exec(said);
  if (first) {
    const name = nameWords(first[1]);
    if (name) return name;
  }
  if (expectingName) {
    // "Tom Baker, four one five five five five…": the number said with it does not count against a bare name.
    const words = spokenDigitsToText(said)
      .replace(/[.,!?;:]/g, " ")
      .split(/\s+/)
      .filter((word) => word && !/^\+?\d+$/.test(word));
    const spelled = words.filter((word) => /^\p{L}$/u.test(word)).length;
    if (words.length >= 1 && words.length - Math.max(0, spelled - 1) <= 3) return nameWords(words.join(" "));
  }
  return undefined;
}

/** Words that end a request without being anyone's name ("…at 3, sounds good", "…tomorrow, thanks bye"). */
const NOT_A_TRAILING_NAME = new Set(
  "bye goodbye cheers thanks thank please asap instead then now soon sounds works work fine perfect great cool awesome there here ok okay yes no morning afternoon evening night am pm ish minutes hours days weeks times people guests gracias adiós adios favor tarde noche mañana".split(" "),
);

/**
 * A name said on its own at the end of a request ("…can you come the day after tomorrow, like 9ish?
 * Pete Ross"): the last clause, two or three name-like words after a pause. Only for requests that
 * need a name (the caller of `understand` decides); a lone word is never taken.
 */
export function trailingName(text: string): string | undefined {
  const clauses = text.replace(HESITATIONS, " ").split(/[,.?!;:—–]+|\s-\s/).map((c) => c.trim()).filter(Boolean);
  if (clauses.length < 2) return undefined;
  const last = clauses[clauses.length - 1].replace(/^(?:(?:and|it's|its|i'm|this is|from)\s+)/i, "");
  const words = last.split(/\s+/);
  if (words.length < 2 || words.length > 3) return undefined;
  if (!words.every((w) => /^[\p{L}'-]{2,}$/u.test(w) && !NOT_NAME.has(w.toLowerCase()) && !NOT_A_TRAILING_NAME.has(w.toLowerCase()) && !HONORIFICS.has(w.toLowerCase()) && !TRAILING_NOT_A_SURNAME.has(w.toLowerCase()))) return undefined;
  return nameWords(words.join(" "));
}

/**
 * A service's own words: a hyphenated compound stays one word ("Move-out Clean" → "moveout", "clean"),
 * so "come out tonight" names no move-out clean; callers' "move out" still meets it joined.
 */
function serviceWordsOf(service: string): string[] {
  return wordsOf(service.replace(/(\p{L})-(?=\p{L})/gu, "$1"));
}

/** Spoken or typed words, lower-case, singular-ish, accents kept. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/[\s-]+/)
    .filter(Boolean);
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** 0..1: 1 for the same word; typos of longer words stay high ("clening" ≈ "cleaning"). */
function wordSimilarity(a: string, b: string): number {
  const x = singular(a);
  const y = singular(b);
  if (x === y) return 1;
  if (Math.min(x.length, y.length) < 4) return 0;
  return 1 - levenshtein(x, y) / Math.max(x.length, y.length);
}

/** Words in a service's name that say nothing about which service it is. */
const GENERIC = new Set(["service", "services", "and", "the", "a", "of", "with", "for", "appointment", "session", "visit", "de", "y", "la", "el"]);
/** What callers say for what businesses write (both ways round is enough for matching). */
const SYNONYMS: Record<string, string[]> = {
  haircut: ["hair cut", "cut", "trim", "corte", "corte de pelo"],
  women: ["woman", "womens", "ladies", "lady", "dama", "damas", "mujer", "señora", "senora"],
  men: ["man", "mens", "gentleman", "gentlemen", "caballero", "caballeros", "hombre"],
  color: ["colour", "dye", "tint", "tinte", "coloring", "colouring", "highlights"],
  cleaning: ["clean", "cleanup", "limpieza", "hygiene"],
  teeth: ["tooth", "dientes", "dental"],
  whitening: ["blanqueamiento", "whiten"],
  checkup: ["check up", "check-up", "exam", "revisión", "revision", "chequeo"],
  drain: ["drains", "desagüe", "desague", "clogged", "clog", "tapó", "tapo", "tapado", "tapada", "atascado", "atascada", "atasco"],
  leak: ["leaking", "leaky", "fuga", "gotera"],
  repair: ["fix", "fixing", "reparación", "reparacion", "arreglar"],
  massage: ["masaje"],
  reservation: ["table", "mesa", "reserva", "reservación", "reservacion"],
  vaccination: ["vaccine", "vaccines", "vaccinations", "shots", "shot", "jabs", "booster", "vacuna", "vacunas"],
  manicure: ["manicura", "nails", "uñas"],
  consultation: ["consult", "consulta"],
  filling: ["fillings", "cavity", "empaste"],
  extraction: ["pull", "pulled", "extracción", "extraccion"],
  oil: ["aceite"],
  ac: ["a/c", "aire acondicionado", "air conditioning", "air conditioner", "minisplit"],
  tune: ["tuneup", "ajuste", "afinación", "afinacion", "mantenimiento"],
  brake: ["brakes", "freno", "frenos"],
  tire: ["tires", "tyre", "tyres", "llanta", "llantas", "neumático", "neumatico"],
};

function expansions(word: string): string[] {
  const out = [word];
  // "Women's Haircut": the possessive's word ("women") carries the synonyms.
  const base = word.replace(/'s?$/, "");
  for (const [canonical, variants] of Object.entries(SYNONYMS)) {
    if (canonical === word || canonical === base || variants.includes(word)) out.push(canonical, ...variants);
  }
  return out;
}

/** The business's service the words name, fuzzy: "a color" → "Hair Color", "cleaning" → "Teeth Cleaning". */
export function matchService(text: string, services: string[] | undefined): { name: string; score: number } | undefined {
  if (!services?.length) return undefined;
  const said = wordsOf(text);
  // Neighbouring words joined as well: "hair cut" names "Haircut".
  const heard = [...said, ...said.slice(1).map((word, i) => said[i] + word)];
  const saidText = ` ${said.join(" ")} `;
  const counts = new Map<string, number>();
  for (const service of services) for (const word of new Set(serviceWordsOf(service))) counts.set(singular(word), (counts.get(singular(word)) ?? 0) + 1);

  let best: { name: string; score: number } | undefined;
  for (const service of services) {
    const serviceWords = serviceWordsOf(service).filter((word) => !GENERIC.has(word));
    if (!serviceWords.length) continue;
    let weightSum = 0;
    let matchedWeight = 0;
    let strongest = 0;
    for (const word of serviceWords) {
      // A word several services share ("repair") tells less than one only this service has.
      const weight = 1 / (counts.get(singular(word)) ?? 1);
      weightSum += weight;
      let similarity = 0;
      for (const variant of expansions(singular(word))) {
        if (variant.includes(" ")) {
          if (saidText.includes(` ${variant} `)) similarity = 1;
          continue;
        }
        for (const candidate of heard) similarity = Math.max(similarity, wordSimilarity(variant, candidate));
      }
      if (similarity >= 0.8) {
        matchedWeight += weight * similarity;
        strongest = Math.max(strongest, similarity * weight);
      }
    }
    if (!matchedWeight) continue;
    const score = Math.min(1, 0.6 * strongest + 0.4 * (matchedWeight / weightSum));
    if (!best || score > best.score) best = { name: service, score: Math.round(score * 100) / 100 };
  }
  return best && best.score >= 0.45 ? best : undefined;
}

const ROLE_WORDS: Record<string, string[]> = {
  dentist: ["dentist", "dentista", "doctor", "doctora", "dr"],
  doctor: ["doctor", "doctora", "dr", "physician", "médico", "medico"],
  hygienist: ["hygienist", "higienista"],
  stylist: ["stylist", "estilista", "hairdresser", "peluquera", "peluquero"],
  plumber: ["plumber", "fontanero", "plomero"],
  owner: ["owner", "boss", "dueño", "dueña", "jefe", "jefa"],
  manager: ["manager", "gerente", "encargado", "encargada"],
  receptionist: ["receptionist", "front desk", "recepcionista"],
  lawyer: ["lawyer", "attorney", "abogado", "abogada"],
  chef: ["chef", "cocinero"],
};
const TITLES = new Set(["dr", "doctor", "doctora", "mr", "mrs", "ms", "miss", "señor", "señora", "sr", "sra"]);

/**
 * A person at the business the caller asks for: by name ("is Dr. Chen in?", "can I speak with
 * Maria"), or by a role word the person's entry carries ("put me through to the dentist" → "Dr. Chen").
 */
export function matchPerson(text: string, people: string[] | undefined): string | undefined {
  const said = wordsOf(text.replace(/\./g, " "));
  if (people?.length) {
    let best: { name: string; score: number } | undefined;
    for (const person of people) {
      const personWords = wordsOf(person.replace(/\./g, " ")).filter((word) => !TITLES.has(word));
      let score = 0;
      for (const word of personWords) {
        if (word.length < 3) continue;
        for (const candidate of said) {
          const similarity = wordSimilarity(word, candidate);
          if (similarity >= 0.8) score = Math.max(score, similarity);
        }
      }
      if (score && (!best || score > best.score)) best = { name: person, score };
    }
    if (best) return best.name;
    // A role word: the person whose entry names that role, or a "Dr." for a dentist/doctor.
    // "Dr. Robinson" names someone (who is not on the staff): its "Dr." is no role asked for.
    const titled = said.filter((word, i) => !(TITLES.has(word) && said[i + 1] && !NOT_NAME.has(said[i + 1]) && !Object.keys(ROLE_WORDS).includes(said[i + 1])));
    const saidText = ` ${titled.join(" ")} `;
    for (const [role, variants] of Object.entries(ROLE_WORDS)) {
      if (!variants.some((variant) => saidText.includes(` ${variant} `))) continue;
      const byRole = people.find((person) => wordsOf(person).some((word) => variants.includes(word) || word === role));
      if (byRole) return byRole;
      if (role === "dentist" || role === "doctor") {
        const doctor = people.find((person) => /^(dr|doctor|doctora)\b/i.test(person.trim()));
        if (doctor) return doctor;
      }
    }
    return undefined;
  }
  // No staff list: a "Dr. Chen" said is still a person asked for.
  const doctor = /\b(?:dr|doctor|doctora)\.?\s+([\p{L}'-]{2,})/iu.exec(text);
  if (doctor && !NOT_NAME.has(doctor[1].toLowerCase())) return `Dr. ${titleCase(doctor[1])}`;
  return undefined;
}
