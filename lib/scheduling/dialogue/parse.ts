/**
 * What a caller's words say about a booking, read without a language model: the day, the time,
 * the service, yes or no, a name, a choice among offered times. Pure: the day "today" is passed in
 * (the business's local date), so tests fix the clock. English only, as the assistant speaks.
 */
import { addDays, WEEKDAYS, weekdayOf } from "../time";

export type DayPart = "morning" | "afternoon" | "evening";
export type BookingIntent = "book" | "reschedule" | "cancel";

const WEEKDAY_NAMES: Record<string, number> = {
  monday: 0, mon: 0, tuesday: 1, tue: 1, tues: 1, wednesday: 2, wed: 2, thursday: 3, thu: 3, thur: 3, thurs: 3, friday: 4, fri: 4, saturday: 5, sat: 5, sunday: 6, sun: 6,
};

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7,
  august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

const ORDINAL_WORDS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
  thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
  "twenty-first": 21, "twenty first": 21, "twenty-second": 22, "twenty second": 22, "twenty-third": 23, "twenty third": 23, thirtieth: 30, "thirty-first": 31, "thirty first": 31,
};

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

const pad = (n: number) => String(n).padStart(2, "0");

function normalize(text: string): string {
  return ` ${text.toLowerCase().replace(/[’`]/g, "'").replace(/[,;!?]/g, " ").replace(/\s+/g, " ").trim()} `;
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The next date (today or later) with that month and day. */
function nextMonthDay(today: string, month: number, day: number): string | null {
  const year = Number(today.slice(0, 4));
  for (const y of [year, year + 1]) {
    if (!validDate(y, month, day)) continue;
    const date = `${y}-${pad(month)}-${pad(day)}`;
    if (date >= today) return date;
  }
  return null;
}

/**
 * The day the words name, as a local "YYYY-MM-DD", relative to `today` (the business's date):
 * today, tomorrow, the day after tomorrow, a weekday (the next one; "next Tuesday" too), "March 16",
 * "16th of March", "3/16", "2027-03-16". null when no day is named.
 */
export function parseDay(text: string, today: string): string | null {
  const t = normalize(text);
  const iso = t.match(/\b(\d{4})-(\d{2})-(\d{2})\b/);
  if (iso && validDate(+iso[1], +iso[2], +iso[3])) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  if (/\bday after tomorrow\b/.test(t)) return addDays(today, 2);
  if (/\btoday\b|\bthis (morning|afternoon|evening)\b|\btonight\b/.test(t)) return today;
  if (/\btomorrow\b/.test(t)) return addDays(today, 1);

  const monthNames = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join("|");
  const dayNum = "(\\d{1,2})(?:st|nd|rd|th)?";
  const ordinalWords = Object.keys(ORDINAL_WORDS).sort((a, b) => b.length - a.length).join("|");
  const monthFirst = t.match(new RegExp(`\\b(${monthNames})\\.? (?:the )?(?:${dayNum}|(${ordinalWords}))\\b`));
  if (monthFirst) {
    const day = monthFirst[2] ? Number(monthFirst[2]) : ORDINAL_WORDS[monthFirst[3]];
    const date = nextMonthDay(today, MONTHS[monthFirst[1]], day);
    if (date) return date;
  }
  const dayFirst = t.match(new RegExp(`\\b(?:the )?(?:${dayNum}|(${ordinalWords})) (?:of )?(${monthNames})\\b`));
  if (dayFirst) {
    const day = dayFirst[1] ? Number(dayFirst[1]) : ORDINAL_WORDS[dayFirst[2]];
    const date = nextMonthDay(today, MONTHS[dayFirst[3]], day);
    if (date) return date;
  }
  const slash = t.match(/\b(\d{1,2})\/(\d{1,2})\b/);
  if (slash) {
    const date = nextMonthDay(today, Number(slash[1]), Number(slash[2]));
    if (date) return date;
  }

  const weekday = t.match(/\b(next |this |on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\b/);
  if (weekday) {
    // "sun"/"sat"/"wed" are also words; only count the short forms after "on"/"next"/"this".
    if (weekday[2].length <= 5 && !/day$/.test(weekday[2]) && !weekday[1]) return null;
    const target = WEEKDAY_NAMES[weekday[2]];
    const current = WEEKDAYS.indexOf(weekdayOf(today));
    let ahead = (target - current + 7) % 7;
    if (ahead === 0) ahead = 7;
    return addDays(today, ahead);
  }
  return null;
}

/**
 * The time of day the words name, as "HH:MM" (24-hour): "10", "10am", "10:30", "2.30 p.m.",
 * "noon", "half past two", "quarter to 3". A bare hour ("at 3") is read as the business day reads
 * it: 1–7 in the afternoon, 8–11 in the morning. null when no time is named.
 */
export function parseTime(text: string): string | null {
  const t = normalize(text).replace(/\b(\d{1,2})\.(\d{2})\b/g, "$1:$2").replace(/\ba\.m\.?/g, "am").replace(/\bp\.m\.?/g, "pm");
  if (/\b(noon|midday)\b/.test(t)) return "12:00";
  const words = Object.keys(NUMBER_WORDS).join("|");
  const half = t.match(new RegExp(`\\b(half|quarter) (past|after|to) (\\d{1,2}|${words})\\b( ?(am|pm))?`));
  if (half) {
    let hour = Number(half[3]) || NUMBER_WORDS[half[3]];
    const minutes = half[1] === "half" ? 30 : half[2] === "to" ? -15 : 15;
    if (half[2] === "to" && half[1] === "half") return null;
    hour = toHour24(hour, half[5] ?? null, t);
    const total = hour * 60 + minutes;
    return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
  }
  const m =
    t.match(/\b(\d{1,2}):(\d{2}) ?(am|pm)?\b/) ??
    t.match(/\b(\d{1,2}) ?()(am|pm)\b/) ??
    t.match(new RegExp(`\\b(\\d{1,2}|${words})()(?: ?o'? ?clock)( ?(?:am|pm))?`)) ??
    t.match(new RegExp(`\\b(?:at|around|about|for|by) (\\d{1,2}|${words})()( ?(?:am|pm))?\\b(?! ?(?:minutes?|mins?|hours?|days?|people|persons?|weeks?)\\b|\/)`)) ??
    t.match(new RegExp(`\\b(\\d{1,2}|${words}) ?()(am|pm|in the morning|in the afternoon|in the evening|at night|tonight)\\b`));
  if (!m) return null;
  const rawHour = Number(m[1]) || NUMBER_WORDS[m[1]];
  const minute = m[2] ? Number(m[2]) : 0;
  if (!rawHour && rawHour !== 0) return null;
  if (rawHour > 23 || minute > 59) return null;
  const hour = toHour24(rawHour, m[3]?.trim() || null, t);
  return `${pad(hour)}:${pad(minute)}`;
}

function toHour24(hour: number, meridiem: string | null, text: string): number {
  const pm = meridiem === "pm" || (!meridiem && /\b(afternoon|evening|tonight)\b/.test(text));
  const am = meridiem === "am" || (!meridiem && /\bmorning\b/.test(text));
  if (hour > 12) return hour;
  if (pm) return hour === 12 ? 12 : hour + 12;
  if (am) return hour === 12 ? 0 : hour;
  // No am/pm: the business day (8–11 in the morning, 12 noon, 1–7 in the afternoon).
  return hour >= 1 && hour <= 7 ? hour + 12 : hour;
}

/** "morning" / "afternoon" / "evening" when the caller asks for a part of the day. */
export function parseDayPart(text: string): DayPart | null {
  const t = normalize(text);
  if (/\bmorning\b/.test(t)) return "morning";
  if (/\bafternoon\b/.test(t)) return "afternoon";
  if (/\b(evening|tonight|after work)\b/.test(t)) return "evening";
  return null;
}

export function inDayPart(localTime: string, part: DayPart): boolean {
  if (part === "morning") return localTime < "12:00";
  if (part === "afternoon") return localTime >= "12:00" && localTime < "17:00";
  return localTime >= "17:00";
}

const YES = /(?<![\p{L}])(yes|yeah|yep|yup|ya|sure|correct|that's right|thats right|right|please do|go ahead|book it|do it|sounds good|perfect|great|ok|okay|absolutely|definitely|confirm|confirmed|affirmative|that works|works for me|y|sí|si|claro|correcto|vale|de acuerdo|perfecto|dale|está bien|esta bien|por supuesto|exacto|así es|reserve|resérvelo|reservelo|ándale|andale|órale|orale|cómo no|como no|ajá|aja|eso es)(?![\p{L}])/u;
const NO = /(?<![\p{L}])(no|nope|nah|not|don't|dont|wrong|incorrect|change|different|another|n|mejor no|para nada|otro|otra)(?![\p{L}])/u;

/** The caller's yes or no; null when neither (or both: "yes, no, wait"). */
export function parseYesNo(text: string): "yes" | "no" | null {
  const t = normalize(text);
  const yes = YES.test(t);
  const no = NO.test(t) && !/\bno problem\b|\bnot a problem\b/.test(t);
  if (yes && !no) return "yes";
  if (no && !yes) return "no";
  if (yes && no) {
    // "No, that's right" is rare; "yes" first and then "not" ("yes, that's not a problem") reads as yes.
    return t.search(YES) < t.search(NO) ? "yes" : "no";
  }
  return null;
}

/** "Never mind", "forget it", "start over": the caller drops the booking. */
export function isAbort(text: string): boolean {
  return /\b(never ?mind|forget (it|about it)|start over|stop booking|don't book|dont book|no thanks|no thank you)\b/.test(normalize(text));
}

/** What the caller wants done with appointments, or null. */
export function parseBookingIntent(text: string): BookingIntent | null {
  const t = normalize(text);
  // "Cancel my Friday appointment and put me in Saturday at 2 instead": one appointment moved, not two requests.
  const later = t.split(/\b(?:and|but|then)\b/).slice(1).join(" ");
  if (/\bcancel\w*\b/.test(t) && /\b(put|book|schedule|make|move|get|switch|do|give)\b/.test(later) && /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|\d{1,2}(?::\d{2})?)\b/.test(later)) return "reschedule";
  if (/\bcancel\w*\b/.test(t) && /\b(appointment|appt|booking|reservation|my|it|visit)\b/.test(t)) return "cancel";
  // "Could we push it back an hour?", "bump it up 30 minutes": the booked time moved.
  if (/\b(push|move|bump|shift|bring)\s+(?:it|that|this|mine|us|me)\s+(?:(?:by\s+)?(?:an?|one|two|three|half an?|\d{1,3})\s+(?:hours?|minutes?|mins?)\s+)?(back|up|forward|later|earlier|ahead)\b/.test(t)) return "reschedule";
  if (/\b(reschedul\w*|re-schedul\w*)\b/.test(t)) return "reschedule";
  if (/\b(move|change|push back|bring forward|switch)\b.{0,30}\b(appointment|appt|booking|reservation)\b/.test(t)) return "reschedule";
  // "Move it to Thursday, same time", "can we push it to Friday?": a move with a new day or time.
  if (/\b(move|push|change|switch) (it|that|mine|my (cleaning|visit|slot|time))\b.{0,20}\b(to|until|for)\b/.test(t)) return "reschedule";
  // "move buddy's exam tomorrow to Monday at 10", "push my haircut back to 5": someone's own visit moved.
  if (/\b(move|push|bump|switch|change|shift)\s+(?:my|our|his|her|their|the|\w+'s)\s.{0,40}?\b(to|until|back|forward|up)\b/.test(t) && !/\b(hair )?colou?r to\b/.test(t)) return "reschedule";
  // "What's the earliest you can get me in?", "could you squeeze me in Friday?": a booking.
  if (/\b(get|fit|squeeze|work|pencil|slot) (me|us|him|her|them|my \w+) in\b/.test(t)) return "book";
  // "Opening hours" and "opening times" ask when the business is open, not for a free slot.
  if (/\b(book|booking|appointment|appt|schedule|reserve|reservation|come in|get in|availability|available|free (slot|time)|opening(?! (hours?|times?)\b)|openings)\b/.test(t)) return "book";
  return null;
}

/** Which of the offered options the caller picked ("the second one", "option 3", "the last"), 1-based; null when none. */
export function parseChoice(text: string, count: number): number | null {
  const t = normalize(text);
  if (/\b(last one|the last|last option)\b/.test(t) || /\b(?:la|el) (?:[uú]ltim[ao])\b/.test(t)) return count;
  // Spanish: "la primera (que tenga)", "el segundo", "la tercera opción" — not "mi primera vez".
  const spanish = t.match(/\b(?:la|el|lo) (primer[ao]?|segund[ao]|tercer[ao]?|cuart[ao]|quint[ao])\b(?! vez\b)/);
  if (spanish) {
    const n = { primer: 1, segund: 2, tercer: 3, cuart: 4, quint: 5 }[spanish[1].replace(/[ao]$/, "") as "primer"] ?? null;
    return n !== null && n <= count ? n : null;
  }
  const ordinal = t.match(/\b(first|second|third|fourth|fifth)\b(?! of\b)/);
  if (ordinal && !/\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/.test(t)) {
    const n = ORDINAL_WORDS[ordinal[1]];
    return n <= count ? n : null;
  }
  const numbered = t.match(/^ (?:number |option |#)?([1-9]) $|\b(?:number|option|#) ?([1-9])\b/);
  if (numbered) {
    const n = Number(numbered[1] ?? numbered[2]);
    return n >= 1 && n <= count ? n : null;
  }
  return null;
}

const NOT_NAMES = new Set(["yes", "no", "yeah", "yep", "yup", "ya", "nah", "correct", "right", "perfect", "great", "fine", "good", "bye", "goodbye", "please", "nope", "sure", "okay", "ok", "hello", "hi", "thanks", "thank", "book", "booking", "appointment", "the", "a", "an", "not", "sorry", "sounds", "that", "that's", "thats", "works", "awesome", "cool", "exactly", "absolutely", "definitely"]);

/** Words that follow "it's" / "I'm" / "this is" in a sentence but never begin a name. */
const NOT_A_NAME_AFTER_INTRO = new Set(["been", "being", "going", "gonna", "getting", "got", "just", "about", "really", "so", "very", "still", "also", "kind", "sort", "calling", "looking", "trying", "wondering", "hoping", "here", "there", "in", "on", "at", "for", "with", "my", "your", "his", "her", "our", "their", "that", "this", "it", "is", "was", "too", "all", "actually", "only", "like", "probably", "definitely", "supposed", "urgent", "important", "broken", "leaking", "making", "doing", "having", "not", "no", "ok", "okay", "fine", "good", "bad", "worse", "new", "due", "time", "over", "under", "almost", "already", "because", "when", "what", "how", "why", "who", "where"]);

function titleCase(words: string[]): string {
  return words.map((w) => (w.length ? w[0].toUpperCase() + w.slice(1) : w)).join(" ");
}

/**
 * The caller's name: "my name is Jane Doe", "it's Jane", "this is Jane Doe", "I'm Jane"; with
 * `alone` (the assistant just asked for the name) the words themselves ("Jane Doe."). At most four
 * words of letters; null otherwise.
 */
export function parseName(text: string, options: { alone?: boolean } = {}): string | null {
  const cleaned = text.replace(/[’`]/g, "'").replace(/[.!?,;]+/g, " ").replace(/\s+/g, " ").trim();
  const intro = cleaned.match(/\b(?:my name is|my name's|name is|name's|the name is|this is|it's|it is|i'm|i am|call me|under|me llamo|mi nombre es|soy|a nombre de|(?<!\b(?:the|your|what|what's the|whose) )name(?!\s+(?:of|for|on|is)\b))\s+(.+)$/i);
  let candidate = intro ? intro[1] : options.alone ? cleaned : null;
  if (!candidate) return null;
  // "It's for Omar Haddad", "it's under Pierce": the name follows.
  candidate = candidate.replace(/^(?:for|under)\s+/i, "");
  candidate = candidate.replace(/\b(please|thanks|thank you)\b.*$/i, "").replace(/\s+(and|for|on|at)\b.*$/i, "").trim();
  const words = candidate.split(" ").filter(Boolean);
  if (words.length === 0 || words.length > 4) return null;
  if (!words.every((w) => /^[\p{L}][\p{L}'-]*$/u.test(w))) return null;
  if (words.some((w) => NOT_NAMES.has(w.toLowerCase())) && words.length === 1) return null;
  if (NOT_NAMES.has(words[0].toLowerCase())) return null;
  // "It's been swollen", "I'm just calling", "it is going to rain": words that go on a sentence, never begin a name.
  if (intro && NOT_A_NAME_AFTER_INTRO.has(words[0].toLowerCase())) return null;
  return titleCase(words);
}

/** Words of a short answer that make it something other than a name ("that one", "later today", "sounds good"). */
const NOT_IN_A_BARE_NAME = new Set(["that", "one", "ones", "first", "second", "third", "last", "other", "another", "today", "tomorrow", "tonight", "morning", "afternoon", "evening", "noon", "week", "weekend", "day", "days", "time", "times", "later", "earlier", "sooner", "instead", "works", "work", "sounds", "fine", "good", "great", "perfect", "cool", "awesome", "wonderful", "excellent", "correct", "right", "exactly", "absolutely", "definitely", "sure", "hmm", "what", "which", "when", "where", "who", "why", "how", "do", "does", "did", "can", "could", "would", "will", "is", "are", "am", "be", "have", "has", "you", "me", "we", "us", "they", "it", "i", "my", "your", "there", "here", "hello", "hey", "wait", "hold", "on", "sorry", "please", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december", "si", "sí", "vale", "claro", "bueno", "gracias"]);

/**
 * A name said on its own where a yes was asked for ("Vera Lind" after "Shall I take Tuesday at 2?"):
 * two or three words of letters, none of them a word of an answer, a question or a day. Null otherwise.
 */
export function bareName(text: string): string | null {
  const name = parseName(text, { alone: true });
  if (!name) return null;
  const words = name.toLowerCase().split(" ");
  if (words.length < 2 || words.length > 3) return null;
  if (words.some((w) => NOT_IN_A_BARE_NAME.has(w) || NOT_NAMES.has(w) || NOT_A_NAME_AFTER_INTRO.has(w) || w.length < 2)) return null;
  return name;
}

/** A phone number in the words ("415 555 0123", "+1 (415) 555-0123"), digits only with a leading + kept. */
export function parsePhoneDigits(text: string): string | null {
  const m = text.match(/\+?\d[\d\s().-]{6,}\d/);
  if (!m) return null;
  const digits = m[0].replace(/[^\d+]/g, "");
  return digits.replace(/\D/g, "").length >= 10 ? digits : null;
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The service the words name, among the business's: the whole name (spaces and plurals ignored,
 * "hair cut" = "Haircut"), else a distinctive word of it ("a colour" → "Hair colour"). The longest
 * match wins; two services matched only by the same word → null (ask).
 */
export function matchService<S extends { name: string }>(text: string, services: S[]): S | null {
  const said = squash(text);
  const whole = services.filter((s) => squash(s.name) && (said.includes(squash(s.name)) || said.includes(squash(s.name).replace(/s$/, ""))));
  if (whole.length) return whole.sort((a, b) => squash(b.name).length - squash(a.name).length)[0];
  const words = new Set(normalize(text).trim().split(" ").map((w) => w.replace(/[^\p{L}\p{N}]/gu, "").replace(/s$/, "")));
  const byWord = services.filter((s) =>
    s.name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .some((w) => w.length > 3 && words.has(w.replace(/s$/, ""))),
  );
  if (byWord.length === 1) return byWord[0];
  // "My teeth cleaned": Teeth Cleaning over Teeth Whitening — the service more of whose words were said
  // ("cleaned" and "cleaning" begin alike), when one has more than any other.
  const long = [...words].filter((w) => w.length >= 5);
  const score = (s: S) =>
    s.name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 3 && (words.has(w.replace(/s$/, "")) || long.some((x) => commonPrefix(x, w) >= 5))).length;
  const ranked = (byWord.length ? byWord : services).map((s) => ({ s, n: score(s) })).sort((a, b) => b.n - a.n);
  return ranked[0] && ranked[0].n >= 2 && ranked[0].n > (ranked[1]?.n ?? 0) ? ranked[0].s : null;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return n;
}

/** The services one word of the caller's names together ("a haircut" → Men's Haircut, Women's Haircut). */
export function servicesSharing<S extends { name: string }>(text: string, services: S[]): S[] {
  if (matchService(text, services)) return [];
  const words = new Set(normalize(text).trim().split(" ").map((w) => w.replace(/[^\p{L}\p{N}]/gu, "").replace(/s$/, "")));
  return services.filter((s) =>
    s.name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .some((w) => w.length > 3 && words.has(w.replace(/s$/, ""))),
  );
}

/** A text signed with a name as its last sentence ("…Kitchen faucet dripping. Tom Reid"): the name. */
export function parseSignature(text: string): string | null {
  const last = text.trim().split(/[.!?\n]+/).map((x) => x.trim()).filter(Boolean).pop() ?? "";
  if (!/^\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+){1,2}$/u.test(last)) return null;
  if (last.split(" ").some((w) => NOT_NAMES.has(w.toLowerCase()) || /^(thanks|thank|please|hi|hello|yes|no|ok|okay)$/i.test(w))) return null;
  return last;
}
