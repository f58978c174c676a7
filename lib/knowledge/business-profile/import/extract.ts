import type { TimeRange } from "@/db/schema/organizations";
import type { ImportFactInput } from "../facts";
import { isIsoDate, looksLikePhone, WEEKDAYS, type Weekday } from "../schema";
import type { SourceDocument } from "./document";
import { findRanges, isTimesOnly, parseHoursLine, parseSchemaOpeningHours, type DayHoursMatch } from "./parse-hours";

/**
 * Candidate facts from a business's pages or documents, read deterministically (no model, no
 * network): schema.org JSON-LD first (what the site itself declares), then the text — hours per
 * weekday, address, phone, services with prices and durations, holidays and special hours, policies,
 * and question/answer pairs. Every fact keeps the words it came from; the owner confirms.
 */
export type RawFact = ImportFactInput & { source: string; evidence: string };

export type ExtractOptions = {
  /** "YYYY-MM-DD": dates written without a year are read as the next such date from here. */
  today: string;
  /** The page the import started from (a website fact); null for files. */
  website?: string | null;
};

const MAX_EVIDENCE = 240;
const trimEvidence = (s: string) => (s.length > MAX_EVIDENCE ? `${s.slice(0, MAX_EVIDENCE - 1)}…` : s);

// ------------------------------------------------------------------------------------------------
// JSON-LD (schema.org LocalBusiness and friends)

type Json = Record<string, unknown>;

function flattenJsonLd(values: unknown[]): Json[] {
  const out: Json[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    const obj = v as Json;
    out.push(obj);
    if (Array.isArray(obj["@graph"])) visit(obj["@graph"], depth + 1);
  };
  values.forEach((v) => visit(v, 0));
  return out;
}

const BUSINESS_TYPES = /(LocalBusiness|Organization|Dentist|Physician|MedicalClinic|Restaurant|Store|Salon|Spa|Service|Office|Clinic|Practice|Agency|Shop|Cafe|Bakery|Bar|Hotel|Gym|Center|Contractor|Plumber|Electrician|Attorney|Notary|Veterinar|Care|Business)/i;

function typeOf(obj: Json): string {
  const t = obj["@type"];
  return Array.isArray(t) ? t.join(" ") : typeof t === "string" ? t : "";
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null;
}

function jsonLdAddress(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (!v || typeof v !== "object") return null;
  const a = v as Json;
  const street = str(a.streetAddress);
  const city = str(a.addressLocality);
  const region = str(a.addressRegion);
  const postal = str(a.postalCode);
  const line2 = [region, postal].filter(Boolean).join(" ");
  const parts = [street, city, line2].filter(Boolean);
  return parts.length >= 2 ? parts.join(", ") : null;
}

const SCHEMA_DAYS: Record<string, Weekday> = { monday: "mon", tuesday: "tue", wednesday: "wed", thursday: "thu", friday: "fri", saturday: "sat", sunday: "sun" };

function schemaDay(v: unknown): Weekday | null {
  const s = str(v);
  if (!s) return null;
  return SCHEMA_DAYS[s.replace(/^https?:\/\/schema\.org\//i, "").toLowerCase()] ?? null;
}

function hhmm(v: unknown): string | null {
  const s = str(v);
  const m = s ? /^(\d{1,2}):(\d{2})/.exec(s) : null;
  if (!m) return null;
  const h = Number(m[1]);
  return h > 24 ? null : `${String(h).padStart(2, "0")}:${m[2]}`;
}

function fromJsonLd(doc: SourceDocument): RawFact[] {
  const facts: RawFact[] = [];
  const source = doc.source;
  for (const obj of flattenJsonLd(doc.jsonLd)) {
    if (!BUSINESS_TYPES.test(typeOf(obj))) continue;
    const name = str(obj.name);
    if (name && name.length <= 100) facts.push({ kind: "name", value: name, source, evidence: `schema.org ${typeOf(obj)} name` });
    const address = jsonLdAddress(obj.address);
    if (address) facts.push({ kind: "address", value: address, source, evidence: "schema.org address" });
    const phone = str(obj.telephone);
    if (phone && looksLikePhone(phone)) facts.push({ kind: "phone", value: phone, source, evidence: "schema.org telephone" });

    const weekly: Partial<Record<Weekday, TimeRange[]>> = {};
    const evidence: string[] = [];
    const specs = ([] as unknown[]).concat(obj.openingHoursSpecification ?? []);
    for (const spec of specs) {
      if (!spec || typeof spec !== "object") continue;
      const s = spec as Json;
      const open = hhmm(s.opens);
      let close = hhmm(s.closes);
      if (close === "00:00" || close === "23:59") close = "24:00";
      const days = ([] as unknown[]).concat(s.dayOfWeek ?? []).map(schemaDay).filter((d): d is Weekday => d !== null);
      const validFrom = str(s.validFrom);
      const validThrough = str(s.validThrough);
      if (validFrom && isIsoDate(validFrom.slice(0, 10)) && (!validThrough || validThrough.slice(0, 10) === validFrom.slice(0, 10)) && days.length === 0) {
        // A one-day special: a holiday or special hours.
        const date = validFrom.slice(0, 10);
        const closedAllDay = !open || !close || open === close;
        facts.push({
          kind: "holiday",
          date,
          name: str(s.name) ?? str(s.description) ?? undefined,
          ...(closedAllDay ? {} : { hours: [{ open: open!, close: close! }] }),
          source,
          evidence: "schema.org specialOpeningHoursSpecification",
        });
        continue;
      }
      if (!open || !close || !(open < close)) continue;
      for (const d of days) (weekly[d] ??= []).push({ open, close });
      evidence.push(`${days.join(", ")} ${open}–${close}`);
    }
    for (const spec of ([] as unknown[]).concat(obj.specialOpeningHoursSpecification ?? [])) {
      if (!spec || typeof spec !== "object") continue;
      const s = spec as Json;
      const date = str(s.validFrom)?.slice(0, 10);
      if (!date || !isIsoDate(date)) continue;
      const open = hhmm(s.opens);
      const close = hhmm(s.closes);
      const closedAllDay = !open || !close || open === close;
      facts.push({
        kind: "holiday",
        date,
        name: str(s.name) ?? undefined,
        ...(closedAllDay ? {} : { hours: [{ open: open!, close: close! }] }),
        source,
        evidence: "schema.org specialOpeningHoursSpecification",
      });
    }
    for (const line of ([] as unknown[]).concat(obj.openingHours ?? [])) {
      const s = str(line);
      if (!s) continue;
      for (const match of parseSchemaOpeningHours(s)) for (const d of match.days) if (match.ranges.length) weekly[d] = match.ranges;
      evidence.push(s);
    }
    if (Object.keys(weekly).length) {
      const complete = Object.fromEntries(WEEKDAYS.map((d) => [d, sortRanges(weekly[d] ?? [])]));
      facts.push({ kind: "hours", weeklyHours: complete, source, evidence: trimEvidence(`schema.org opening hours: ${evidence.join("; ")}`) });
    }
  }
  return facts;
}

function sortRanges(ranges: TimeRange[]): TimeRange[] {
  const unique = ranges.filter((r, i) => ranges.findIndex((x) => x.open === r.open && x.close === r.close) === i);
  return unique.sort((a, b) => a.open.localeCompare(b.open)).filter((r, i, list) => i === 0 || r.open >= list[i - 1].close);
}

// ------------------------------------------------------------------------------------------------
// Hours in text

function hoursFromBlocks(doc: SourceDocument): RawFact[] {
  const weekly: Partial<Record<Weekday, TimeRange[]>> = {};
  const evidence: string[] = [];
  const assign = (matches: DayHoursMatch[], line: string) => {
    let used = false;
    for (const m of matches) {
      if (!m.ranges.length && !m.closed) continue;
      for (const d of m.days) {
        if (weekly[d] !== undefined) continue; // the first schedule on the page wins (later ones are often "phone hours")
        weekly[d] = m.ranges;
        used = true;
      }
    }
    if (used) evidence.push(line);
  };
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const line = blocks[i].text;
    if (line.length > 300) continue;
    if (/\b(holiday|christmas|thanksgiving|new year|closed on|special hours)\b/i.test(line)) continue;
    const matches = parseHoursLine(line);
    if (matches.length === 0) continue;
    const withTimes = matches.some((m) => m.ranges.length || m.closed);
    if (!withTimes) {
      // "Monday – Friday" with the times on the next line.
      const next = blocks[i + 1]?.text ?? "";
      if (isTimesOnly(next) && matches.length === 1 && line.length <= 60) {
        const ranges = findRanges(next);
        assign([{ days: matches[0].days, ranges, closed: ranges.length === 0 }], `${line} ${next}`);
        i++;
      }
      continue;
    }
    assign(matches, line);
  }
  const days = Object.keys(weekly) as Weekday[];
  const opened = days.filter((d) => (weekly[d]?.length ?? 0) > 0);
  // One stray "Saturday 5pm" in a blog post is not a schedule: ask for at least two days, one of them open.
  if (days.length < 2 || opened.length === 0) return [];
  const complete = Object.fromEntries(WEEKDAYS.map((d) => [d, weekly[d] ? sortRanges(weekly[d]!) : []]));
  return [{ kind: "hours", weeklyHours: complete, source: doc.source, evidence: trimEvidence(evidence.join(" · ")) }];
}

// ------------------------------------------------------------------------------------------------
// Address, phone

const STREET_SUFFIX =
  "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Highway|Hwy|Square|Sq|Terrace|Ter|Circle|Cir|Trail|Trl|Plaza|Alley|Row|Pike|Loop|Broadway";
const US_ADDRESS = new RegExp(
  `\\b\\d{1,6}[A-Za-z]?\\s+(?:[NSEW]\\.?\\s+)?[A-Za-z0-9][A-Za-z0-9.'\\- ]{0,50}?\\b(?:${STREET_SUFFIX})\\.?(?:\\s+[NSEW]{1,2}\\.?)?(?:,?\\s*(?:Suite|Ste\\.?|Unit|Floor|Fl\\.?|#)\\s*[A-Za-z0-9\\-]+)?,?\\s+[A-Za-z][A-Za-z .'\\-]{1,40},\\s*[A-Z]{2}\\.?\\s+\\d{5}(?:-\\d{4})?\\b`,
);
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)|\d{2,4})[\s.-]\d{3,4}[\s.-]\d{3,4}\b/g;

function addressFromBlocks(doc: SourceDocument): RawFact[] {
  const facts: RawFact[] = [];
  // <address> blocks, joined (street, city on separate lines).
  const addressLines = doc.blocks.filter((b) => b.type === "address").map((b) => b.text);
  const joined = addressLines.join(", ");
  const candidates = [joined, ...doc.blocks.map((b) => b.text)];
  // Also a street line followed by a "City, ST 12345" line.
  for (let i = 0; i + 1 < doc.blocks.length; i++) candidates.push(`${doc.blocks[i].text}, ${doc.blocks[i + 1].text}`);
  for (const text of candidates) {
    const m = US_ADDRESS.exec(text);
    if (m) {
      const value = m[0].replace(/\s+/g, " ").replace(/\s*,\s*/g, ", ").trim();
      facts.push({ kind: "address", value, source: doc.source, evidence: trimEvidence(text) });
      break;
    }
  }
  return facts;
}

function normalizePhone(raw: string): string {
  return raw.replace(/\s+/g, " ").trim();
}

function phoneFromDoc(doc: SourceDocument): RawFact[] {
  const counts = new Map<string, { value: string; n: number; evidence: string; visible: boolean }>();
  const add = (raw: string, evidence: string, weight: number, visible: boolean) => {
    const value = normalizePhone(raw);
    if (!looksLikePhone(value)) return;
    const digits = value.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
    const entry = counts.get(digits) ?? { value, n: 0, evidence, visible };
    // The number as the page shows it ("(503) 555-0199") reads better than a tel: link's digits.
    if (visible && !entry.visible) Object.assign(entry, { value, evidence, visible: true });
    entry.n += weight;
    counts.set(digits, entry);
  };
  for (const tel of doc.phones) add(tel, `a "call us" link (tel:${tel})`, 3, false);
  for (const block of doc.blocks) {
    if (block.text.length > 400) continue;
    PHONE.lastIndex = 0;
    for (let m = PHONE.exec(block.text); m; m = PHONE.exec(block.text)) {
      const near = /\b(call|phone|tel|telephone|contact|reach us|text)\b/i.test(block.text) ? 2 : 1;
      add(m[0], block.text, near, true);
    }
  }
  const best = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  return best ? [{ kind: "phone", value: best.value, source: doc.source, evidence: trimEvidence(best.evidence) }] : [];
}

/** The main time zone of each US state (the one most of its people live in). */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: "America/Chicago", AK: "America/Anchorage", AZ: "America/Phoenix", AR: "America/Chicago", CA: "America/Los_Angeles",
  CO: "America/Denver", CT: "America/New_York", DE: "America/New_York", DC: "America/New_York", FL: "America/New_York",
  GA: "America/New_York", HI: "Pacific/Honolulu", ID: "America/Boise", IL: "America/Chicago", IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago", KS: "America/Chicago", KY: "America/New_York", LA: "America/Chicago", ME: "America/New_York",
  MD: "America/New_York", MA: "America/New_York", MI: "America/Detroit", MN: "America/Chicago", MS: "America/Chicago",
  MO: "America/Chicago", MT: "America/Denver", NE: "America/Chicago", NV: "America/Los_Angeles", NH: "America/New_York",
  NJ: "America/New_York", NM: "America/Denver", NY: "America/New_York", NC: "America/New_York", ND: "America/Chicago",
  OH: "America/New_York", OK: "America/Chicago", OR: "America/Los_Angeles", PA: "America/New_York", RI: "America/New_York",
  SC: "America/New_York", SD: "America/Chicago", TN: "America/Chicago", TX: "America/Chicago", UT: "America/Denver",
  VT: "America/New_York", VA: "America/New_York", WA: "America/Los_Angeles", WV: "America/New_York", WI: "America/Chicago",
  WY: "America/Denver", PR: "America/Puerto_Rico",
};

export function timezoneFromAddress(address: string): string | null {
  const m = /,\s*([A-Z]{2})\.?\s+\d{5}(?:-\d{4})?\b/.exec(address);
  return m ? (STATE_TIME_ZONES[m[1]] ?? null) : null;
}

// ------------------------------------------------------------------------------------------------
// Services and prices

const MONEY = "[$€£]\\s?\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?";
const PRICE = new RegExp(
  `(?:(from|starting at|starts at|as low as|starting from|only)\\s+)?(${MONEY})(?:\\s*(?:-|–|—|to)\\s*(${MONEY}|\\d{1,5}(?:\\.\\d{2})?))?(\\s*\\+|\\s+and up|\\s+per (?:hour|visit|session|person|month))?`,
  "i",
);
const DURATION = /\b(\d{1,3}(?:\.\d)?)\s*(?:-|–)?\s*(minutes?|mins?|min|hours?|hrs?|hr|h)\b(?:\s*(\d{1,2})\s*(?:minutes?|mins?|min|m)\b)?/i;

function parseMoney(text: string): number | null {
  const m = /(\d{1,3}(?:,\d{3})*)(?:\.(\d{2}))?/.exec(text);
  if (!m) return null;
  return Number(m[1].replace(/,/g, "")) * 100 + Number(m[2] ?? "0");
}

export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const value = Number(m[1]);
  const unit = m[2].toLowerCase();
  let minutes = unit.startsWith("h") ? value * 60 : value;
  if (m[3]) minutes += Number(m[3]);
  minutes = Math.round(minutes);
  return minutes >= 5 && minutes <= 1440 ? minutes : null;
}

const NOT_A_SERVICE = /\b(total|subtotal|tax|shipping|gift card|deposit|fee waived|save|off|discount|coupon|per month|membership|call|phone|open|closed|hours?|copyright|©)\b/i;

function cleanServiceName(text: string): string {
  return text
    .replace(DURATION, " ")
    .replace(/\((?:\s|,|-)*\)/g, " ")
    .replace(/\b(from|starting at|starts at|as low as|only)\s*$/i, " ")
    .replace(/[.…·•|:—–\-_=*]+\s*$/g, " ")
    .replace(/^[\s.…·•|:—–\-_=*]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[,;:.\-–—]+$/, "")
    .trim();
}

type ServiceCandidate = Extract<RawFact, { kind: "service" }>;

function serviceFromLine(text: string, source: string, description?: string): ServiceCandidate | null {
  if (text.length > 160) return null;
  const price = PRICE.exec(text);
  if (!price) return null;
  const cells = text.split(/\s+\|\s+/);
  let name: string;
  let desc = description;
  if (cells.length >= 2) {
    // A table row: the first cell names the service; a cell that is neither price nor duration describes it.
    name = cleanServiceName(cells[0]);
    const other = cells.slice(1).find((c) => !PRICE.test(c) && !DURATION.test(c) && c.length > 3);
    if (other && !desc) desc = other;
  } else {
    const before = text.slice(0, price.index);
    const after = text.slice(price.index + price[0].length);
    name = cleanServiceName(before.trim() ? before : after);
  }
  if (!/^[A-Za-z]/.test(name) || name.length < 3 || name.length > 60 || name.split(/\s+/).length > 8) return null;
  if (NOT_A_SERVICE.test(name) || parseHoursLine(name).length > 0) return null;
  const [, qualifier, low, high, suffix] = price;
  const duration = parseDuration(text);
  const fact: ServiceCandidate = { kind: "service", name, source, evidence: trimEvidence(text) };
  if (!qualifier && !high && !suffix) fact.priceCents = parseMoney(low)!;
  else fact.priceText = price[0].trim().replace(/\s+/g, " ").slice(0, 60);
  if (duration) fact.durationMinutes = duration;
  if (desc && desc.length <= 300) fact.description = desc.replace(/\s+/g, " ").trim();
  return fact;
}

const SERVICE_HEADING = /\b(services?|treatments?|what we (do|offer)|our work|menu|procedures?|pricing|prices|price list|rates|packages|offerings|specialties)\b/i;

function servicesFromBlocks(doc: SourceDocument): RawFact[] {
  const facts: RawFact[] = [];
  let heading = "";
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.type === "heading") {
      heading = b.text;
      // "Teeth whitening" heading with "$350 · 60 minutes" under it.
      const next = blocks[i + 1];
      // Only a line that is just a price (and a duration) belongs to the heading above it.
      const priceOnly = next && next.text.replace(PRICE, "").replace(DURATION, "").replace(/[^A-Za-z]/g, "").length <= 4;
      if (next && (next.type === "text" || next.type === "definition") && PRICE.test(next.text) && priceOnly && !PRICE.test(b.text)) {
        const fact = serviceFromLine(`${b.text} ${next.text}`, doc.source);
        const desc = blocks[i + 2] && blocks[i + 2].type === "text" && !PRICE.test(blocks[i + 2].text) ? blocks[i + 2].text : undefined;
        if (fact) {
          if (desc && desc.length <= 300) fact.description = desc;
          facts.push(fact);
          i++;
          continue;
        }
      }
      const fact = PRICE.test(b.text) ? serviceFromLine(b.text, doc.source) : null;
      if (fact) facts.push(fact);
      continue;
    }
    if (b.type === "term") {
      const next = blocks[i + 1];
      if (next?.type === "definition" && PRICE.test(`${b.text} ${next.text}`) && !b.text.endsWith("?")) {
        const fact = serviceFromLine(`${b.text} ${PRICE.exec(next.text)?.[0] ?? ""} ${DURATION.exec(next.text)?.[0] ?? ""}`, doc.source);
        if (fact) {
          const desc = next.text.replace(PRICE, "").replace(DURATION, "").replace(/\s+/g, " ").trim().replace(/^[,.;:–—-]+|[,;:–—-]+$/g, "").trim();
          if (desc.length > 3 && desc.length <= 300) fact.description = desc;
          facts.push(fact);
          i++;
          continue;
        }
      }
    }
    if (b.text.length > 160) continue;
    const fact = serviceFromLine(b.text, doc.source);
    if (fact) {
      facts.push(fact);
      continue;
    }
    // A plain list of services under a "Services" heading ("Cleanings", "Whitening"…).
    if (b.type === "item" && SERVICE_HEADING.test(heading) && !/polic|faq|question/i.test(heading)) {
      const name = cleanServiceName(b.text);
      if (/^[A-Za-z]/.test(name) && name.length >= 3 && name.length <= 50 && name.split(/\s+/).length <= 6 && !NOT_A_SERVICE.test(name) && !/[.!?]$/.test(b.text)) {
        const duration = parseDuration(b.text);
        facts.push({ kind: "service", name, ...(duration ? { durationMinutes: duration } : {}), source: doc.source, evidence: trimEvidence(`${heading}: ${b.text}`) });
      }
    }
  }
  return facts.slice(0, 60);
}

// ------------------------------------------------------------------------------------------------
// Holidays and special hours

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DATE_PATTERNS: RegExp[] = [
  new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "i"),
  new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?:,?\\s+(\\d{4}))?\\b`, "i"),
  /\b(\d{4})-(\d{2})-(\d{2})\b/,
  /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?\b/,
];

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, "");
  return MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

function dateFor(year: number | null, month: number, day: number, today: string): string | null {
  const pad = (n: number) => String(n).padStart(2, "0");
  const thisYear = Number(today.slice(0, 4));
  let y = year ?? thisYear;
  let date = `${y}-${pad(month + 1)}-${pad(day)}`;
  if (!isIsoDate(date)) return null;
  if (!year && date < today) {
    y += 1;
    date = `${y}-${pad(month + 1)}-${pad(day)}`;
  }
  return isIsoDate(date) ? date : null;
}

/** The first date written in a text, as "YYYY-MM-DD" (no year: the next such date from `today`). */
export function findDate(text: string, today: string): { date: string; match: string } | null {
  let m = DATE_PATTERNS[0].exec(text);
  if (m) {
    const date = dateFor(m[3] ? Number(m[3]) : null, monthIndex(m[1]), Number(m[2]), today);
    if (date) return { date, match: m[0] };
  }
  m = DATE_PATTERNS[1].exec(text);
  if (m) {
    const date = dateFor(m[3] ? Number(m[3]) : null, monthIndex(m[2]), Number(m[1]), today);
    if (date) return { date, match: m[0] };
  }
  m = DATE_PATTERNS[2].exec(text);
  if (m && isIsoDate(m[0])) return { date: m[0], match: m[0] };
  m = DATE_PATTERNS[3].exec(text);
  if (m) {
    const date = dateFor(m[3] ? Number(m[3]) : null, Number(m[1]) - 1, Number(m[2]), today);
    if (date) return { date, match: m[0] };
  }
  return null;
}

const HOLIDAY_CONTEXT = /\b(holiday|closed|special hours|christmas|xmas|thanksgiving|new year|easter|independence day|july 4|memorial day|labou?r day|eve)\b/i;

function holidaysFromBlocks(doc: SourceDocument, options: ExtractOptions): RawFact[] {
  const facts: RawFact[] = [];
  let heading = "";
  for (const b of doc.blocks) {
    if (b.type === "heading") heading = b.text;
    if (b.text.length > 200) continue;
    const context = `${heading} ${b.text}`;
    if (!HOLIDAY_CONTEXT.test(context)) continue;
    const found = findDate(b.text, options.today);
    if (!found) continue;
    const rest = b.text.replace(found.match, " ");
    const ranges = findRanges(rest);
    const closed = ranges.length === 0;
    if (closed && !/\bclosed\b/i.test(context)) continue;
    const name = rest
      .replace(/\b(closed|open|hours?|special|holiday|on|for|we are|we're|will be|the office is|:|\(|\))\b/gi, " ")
      .replace(/(\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)?\s*(-|–|to)\s*\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)?)/gi, " ")
      .replace(/[()\-–—:,.|]+/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    facts.push({
      kind: "holiday",
      date: found.date,
      ...(name && name.length <= 60 && /[a-z]/i.test(name) ? { name } : {}),
      ...(closed ? {} : { hours: sortRanges(ranges) }),
      source: doc.source,
      evidence: trimEvidence(b.text),
    });
  }
  return facts;
}

// ------------------------------------------------------------------------------------------------
// FAQs and policies

const MARKETING_QUESTION = /^(ready|looking|want|need|why wait|what are you waiting|have questions|got questions|questions\??$|any questions|still have questions|interested|not sure|why choose|why us)/i;

function faqsFromBlocks(doc: SourceDocument): RawFact[] {
  const facts: RawFact[] = [];
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    let question = b.text.replace(/^(q|question)\s*[:.)-]\s*/i, "").trim();
    const qa = /^(.{8,200}\?)\s+(?:(?:a|answer)\s*[:.)-]\s*)?(.{3,})$/i.exec(b.text.replace(/^(q|question)\s*[:.)-]\s*/i, ""));
    if (qa && b.type !== "heading" && !/^(q|question)\s*[:.)-]?\s*$/i.test(b.text)) {
      // "Do you take insurance? Yes, most plans." in one block.
      if (!MARKETING_QUESTION.test(qa[1])) facts.push({ kind: "faq", question: qa[1].trim(), answer: qa[2].trim().slice(0, 1000), source: doc.source, evidence: trimEvidence(b.text) });
      continue;
    }
    if (!question.endsWith("?") || question.length < 8 || question.length > 200 || MARKETING_QUESTION.test(question)) continue;
    const answer: string[] = [];
    for (let j = i + 1; j < blocks.length && answer.join(" ").length < 800; j++) {
      const next = blocks[j];
      if (next.type === "heading" || next.type === "term" || next.type === "break" || next.text.trim().endsWith("?") || /^(q|question)\s*[:.)-]|^.{8,200}\?\s/i.test(next.text)) break;
      answer.push(next.text.replace(/^(a|answer)\s*[:.)-]\s*/i, ""));
      if (next.type === "definition" && blocks[j + 1]?.type !== "definition") break;
    }
    const text = answer.join(" ").replace(/\s+/g, " ").trim();
    if (text.split(/\s+/).length < 2) continue;
    question = question.replace(/\s+/g, " ");
    facts.push({ kind: "faq", question, answer: text.slice(0, 1000), source: doc.source, evidence: trimEvidence(`${question} ${text}`) });
  }
  return facts;
}

const POLICY_HEADING =
  /\b(polic(y|ies)|cancell?ations?|late arrivals?|no[- ]shows?|payments?|insurance|refunds?|returns?|deposits?|parking|guarantee|warranty|accessibility|pets?|children|house rules|what to bring|new patients?)\b/i;
const NOT_POLICY = /\b(privacy|cookies?|terms (of|and) (use|service|conditions)|gdpr|website terms|legal notice)\b/i;

function policiesFromBlocks(doc: SourceDocument): RawFact[] {
  const facts: RawFact[] = [];
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.type !== "heading" || !POLICY_HEADING.test(b.text) || NOT_POLICY.test(b.text) || b.text.endsWith("?") || b.text.length > 80) continue;
    const body: string[] = [];
    for (let j = i + 1; j < blocks.length; j++) {
      const next = blocks[j];
      if (next.type === "heading" || next.type === "break") break;
      body.push(next.text);
      if (body.join(" ").length > 900) break;
    }
    const text = body.join(" ").replace(/\s+/g, " ").trim();
    if (text.split(/\s+/).length < 5) continue;
    facts.push({ kind: "policy", title: b.text.replace(/[:.]$/, ""), text: text.slice(0, 1500), source: doc.source, evidence: trimEvidence(`${b.text}: ${text}`) });
  }
  // Sentences that state a rule, wherever they are ("Please give us 24 hours' notice to cancel.").
  const rules: [RegExp, string][] = [
    [/\b(cancel\w*|reschedul\w*)\b[^.!?]{0,120}\b(\d+\s*(hours?|hrs?|days?)|notice|fee|charge)\b[^.!?]*[.!?]|\b(\d+\s*(hours?|hrs?|days?)|notice)\b[^.!?]{0,120}\bcancel\w*\b[^.!?]*[.!?]/i, "Cancellation policy"],
    [/\b(late arrivals?|arrive (more than )?\d+ minutes late|no[- ]shows?)\b[^.!?]*[.!?]/i, "Late arrivals and no-shows"],
    [/\bwe (accept|take)\b[^.!?]{0,160}\b(insurance|cards?|cash|visa|mastercard|amex|checks?|payment plans?|apple pay|financing)\b[^.!?]*[.!?]/i, "Payment and insurance"],
    [/\b(free parking|parking (is )?(available|in|on|behind|at)|park (in|on|behind))\b[^.!?]*[.!?]/i, "Parking"],
  ];
  for (const block of blocks) {
    if (block.type === "heading" || block.text.length > 1200) continue;
    for (const [pattern, title] of rules) {
      const m = pattern.exec(block.text);
      if (!m) continue;
      const start = Math.max(0, block.text.lastIndexOf(".", m.index) + 1, block.text.lastIndexOf("!", m.index) + 1, block.text.lastIndexOf("?", m.index) + 1);
      const sentence = block.text.slice(start, m.index + m[0].length).trim();
      if (sentence.length < 15 || sentence.endsWith("?")) continue;
      if (facts.some((f) => f.kind === "policy" && (f.title === title || f.text.includes(sentence)))) continue;
      facts.push({ kind: "policy", title, text: sentence, source: doc.source, evidence: trimEvidence(block.text) });
    }
  }
  return facts;
}

// ------------------------------------------------------------------------------------------------

function factKey(f: RawFact): string {
  switch (f.kind) {
    case "name":
    case "address":
    case "phone":
    case "website":
    case "timezone":
    case "hours":
      return f.kind;
    case "holiday":
      return `holiday:${f.date}`;
    case "service":
      return `service:${f.name.toLowerCase()}`;
    case "policy":
      return `policy:${f.title.toLowerCase()}`;
    case "faq":
      return `faq:${f.question.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()}`;
  }
}

/** Candidate facts from every document, the first found of each kind/key kept (JSON-LD first). */
export function extractFacts(docs: SourceDocument[], options: ExtractOptions): RawFact[] {
  const all: RawFact[] = [];
  for (const doc of docs) all.push(...fromJsonLd(doc));
  for (const doc of docs) {
    all.push(
      ...hoursFromBlocks(doc),
      ...addressFromBlocks(doc),
      ...phoneFromDoc(doc),
      ...holidaysFromBlocks(doc, options),
      ...servicesFromBlocks(doc),
      ...faqsFromBlocks(doc),
      ...policiesFromBlocks(doc),
    );
  }
  if (options.website) all.push({ kind: "website", value: options.website, source: options.website, evidence: "The address you imported from" });
  const seen = new Set<string>();
  const unique: RawFact[] = [];
  for (const fact of all) {
    const key = factKey(fact);
    if (seen.has(key)) {
      // A later service mention may add what the first lacked (a price on the pricing page).
      if (fact.kind === "service") {
        const first = unique.find((f) => factKey(f) === key) as ServiceCandidate;
        if (first.priceCents === undefined && first.priceText === undefined && (fact.priceCents !== undefined || fact.priceText)) {
          first.priceCents = fact.priceCents;
          first.priceText = fact.priceText;
          first.evidence = fact.evidence;
        }
        if (!first.durationMinutes && fact.durationMinutes) first.durationMinutes = fact.durationMinutes;
        if (!first.description && fact.description) first.description = fact.description;
      }
      continue;
    }
    seen.add(key);
    unique.push(fact);
  }
  const address = unique.find((f) => f.kind === "address");
  if (address && address.kind === "address") {
    const tz = timezoneFromAddress(address.value);
    if (tz) unique.push({ kind: "timezone", value: tz, source: address.source, evidence: `Guessed from the state in the address (${address.value})` });
  }
  return unique;
}
