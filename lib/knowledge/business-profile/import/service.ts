import "server-only";
import type { Db } from "@/db/client";
import { badRequest, HttpError, tooManyRequests } from "@/lib/platform/http/errors";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { parseOutboundUrl, UnsafeUrlError } from "@/lib/platform/net/safe-fetch";
import { formatPrice } from "@/lib/knowledge/services/schema";
import { questionKey } from "@/lib/platform/text/match";
import type { ImportedFact } from "../facts";
import { formatRanges, localMoment, summarizeWeek } from "../hours";
import { normalizeWebsite, WEEKDAYS } from "../schema";
import { getBusinessProfile, type BusinessProfileView } from "../service";
import { crawlSite, ImportFetchError, type CrawledPage, type CrawlLimits } from "./crawl";
import { parseHtml, parseText, type SourceDocument } from "./document";
import { extractFacts, type RawFact } from "./extract";
import { PdfError, pdfToText, type PdfLimits } from "./pdf";

/**
 * POST /api/business-profile/import: read a website (a few pages deep) or an uploaded document and
 * answer the facts found, each marked new / same / changes against the current profile. Nothing is
 * saved here: the owner confirms facts on the Business screen, which sends them to
 * POST /api/business-profile/import/apply.
 */
export const IMPORTS_PER_HOUR = 30;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Document and website imports one organization may run at once on one instance. */
export const CONCURRENT_IMPORTS_PER_ORGANIZATION = 1;

const RUNNING = Symbol.for("switchboard.runningImports");
const holder = globalThis as typeof globalThis & { [RUNNING]?: Map<string, number> };
const runningImports = (holder[RUNNING] ??= new Map<string, number>());

/** Runs one import of the organization, or answers 429 while its earlier one is still reading. */
async function oneImportAtATime<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
  const running = runningImports.get(organizationId) ?? 0;
  if (running >= CONCURRENT_IMPORTS_PER_ORGANIZATION) {
    throw tooManyRequests("An import for your business is already running. Please wait for it to finish.", 5);
  }
  runningImports.set(organizationId, running + 1);
  try {
    return await work();
  } finally {
    const left = (runningImports.get(organizationId) ?? 1) - 1;
    if (left > 0) runningImports.set(organizationId, left);
    else runningImports.delete(organizationId);
  }
}

export type ImportResult = {
  source: { kind: "website"; url: string } | { kind: "file"; name: string; contentType: string; pages?: number } | { kind: "text"; name: string };
  pages: CrawledPage[];
  facts: ImportedFact[];
};

export type ImportOptions = { limits?: Partial<CrawlLimits>; allowPrivate?: boolean; now?: Date; pdfLimits?: Partial<PdfLimits> };

async function limitImports(db: Db, organizationId: string) {
  await hitRateLimit(
    db,
    `business-import:org:${organizationId}`,
    IMPORTS_PER_HOUR,
    60 * 60 * 1000,
    `You can import up to ${IMPORTS_PER_HOUR} times an hour. Please try again later.`,
  );
}

function todayFor(view: BusinessProfileView, now: Date): string {
  return view.timezone ? localMoment(now, view.timezone).date : now.toISOString().slice(0, 10);
}

function describeCurrent(fact: RawFact, view: BusinessProfileView): { status: ImportedFact["status"]; current?: string } {
  const compare = (current: string | null | undefined, next: string) => {
    if (!current) return { status: "new" as const };
    return current.trim().toLowerCase() === next.trim().toLowerCase() ? { status: "same" as const, current } : { status: "changes" as const, current };
  };
  switch (fact.kind) {
    case "name":
      return compare(view.name, fact.value);
    case "address":
    case "phone":
    case "website":
    case "timezone":
      return compare(view[fact.kind], fact.value);
    case "hours": {
      const has = WEEKDAYS.some((d) => view.weeklyHours[d].length);
      if (!has) return view.legacy.hours ? { status: "changes", current: view.legacy.hours } : { status: "new" };
      const current = summarizeWeek(view.weeklyHours);
      return current === summarizeWeek(fact.weeklyHours) ? { status: "same", current } : { status: "changes", current };
    }
    case "holiday": {
      const existing = view.holidays.find((h) => h.date === fact.date);
      if (!existing) return { status: "new" };
      const current = `${existing.name ?? fact.date}: ${formatRanges(existing.hours)}`;
      return formatRanges(existing.hours) === formatRanges(fact.hours) ? { status: "same", current } : { status: "changes", current };
    }
    case "service": {
      const existing = view.services.find((s) => s.name.toLowerCase() === fact.name.toLowerCase());
      if (!existing) return { status: "new" };
      const price = existing.priceCents != null ? formatPrice(existing.priceCents, view.currency) : (existing.priceText ?? "no price");
      const current = `${existing.name}: ${price}, ${existing.durationMinutes} min`;
      const samePrice =
        (fact.priceCents === undefined || fact.priceCents === existing.priceCents) && (fact.priceText === undefined || fact.priceText === existing.priceText);
      const sameDuration = fact.durationMinutes === undefined || fact.durationMinutes === existing.durationMinutes;
      return samePrice && sameDuration ? { status: "same", current } : { status: "changes", current };
    }
    case "policy": {
      const existing = view.policies.find((p) => p.title.toLowerCase() === fact.title.toLowerCase());
      if (!existing) return { status: "new" };
      return existing.text === fact.text ? { status: "same", current: existing.text } : { status: "changes", current: existing.text };
    }
    case "faq": {
      const key = questionKey(fact.question);
      const existing = view.faqs.find((f) => questionKey(f.question) === key);
      if (!existing) return { status: "new" };
      return existing.answer === fact.answer ? { status: "same", current: existing.answer } : { status: "changes", current: existing.answer };
    }
  }
}

export function describeFacts(raw: RawFact[], view: BusinessProfileView): ImportedFact[] {
  return raw.map((fact, i) => ({ ...fact, id: `f${i + 1}`, ...describeCurrent(fact, view) }));
}

function urlError(message: string) {
  return badRequest(`Invalid request: url: ${message}`, { url: message });
}

/** Imports from a website: the page at `rawUrl` and a few linked pages of the same site. */
export async function importFromWebsite(db: Db, organizationId: string, rawUrl: string, options: ImportOptions = {}): Promise<ImportResult> {
  let url: URL;
  try {
    url = parseOutboundUrl(normalizeWebsite(rawUrl));
  } catch (error) {
    throw urlError((error as Error).message);
  }
  if (!url.hostname.includes(".") && !options.allowPrivate && url.hostname !== "localhost") {
    throw urlError("Enter your website's address, e.g. https://example.com");
  }
  await limitImports(db, organizationId);
  const now = options.now ?? new Date();
  const view = await getBusinessProfile(db, organizationId, now);
  let crawl;
  try {
    crawl = await oneImportAtATime(organizationId, () => crawlSite(url.toString(), { limits: options.limits, allowPrivate: options.allowPrivate }));
  } catch (error) {
    if (error instanceof UnsafeUrlError || error instanceof ImportFetchError) throw urlError(error.message);
    throw error;
  }
  const start = crawl.pages.find((p) => !p.error)?.url ?? url.toString();
  const website = new URL(start);
  website.pathname = "/";
  website.search = "";
  const raw = extractFacts(crawl.docs, { today: todayFor(view, now), website: website.toString() });
  return { source: { kind: "website", url: url.toString() }, pages: crawl.pages, facts: describeFacts(raw, view) };
}

export type UploadedFile = { name: string; contentType: string; bytes: Buffer };

function fileError(message: string) {
  return badRequest(`Invalid request: file: ${message}`, { file: message });
}

/** Imports from an uploaded document: PDF, HTML, plain text or Markdown. */
export async function importFromFile(db: Db, organizationId: string, file: UploadedFile, options: ImportOptions = {}): Promise<ImportResult> {
  if (file.bytes.byteLength === 0) throw fileError("The file is empty");
  if (file.bytes.byteLength > MAX_UPLOAD_BYTES) throw new HttpError(413, "The file is larger than 10 MB", { file: "The file is larger than 10 MB" });
  const name = file.name || "document";
  const type = file.contentType.toLowerCase();
  const isPdf = file.bytes.subarray(0, 5).toString("latin1") === "%PDF-" || type.includes("pdf") || /\.pdf$/i.test(name);
  const isHtml = !isPdf && (type.includes("html") || /\.x?html?$/i.test(name));
  const isText = !isPdf && !isHtml && (type.startsWith("text/") || /\.(txt|md|markdown|csv|text)$/i.test(name) || type === "" || type === "application/octet-stream");
  if (!isPdf && !isHtml && !isText) throw fileError("Upload a PDF, a web page (.html) or a text file (.txt, .md)");
  if (isText && file.bytes.subarray(0, 4096).includes(0)) throw fileError("This file is not text; upload a PDF, a web page or a text file");
  await limitImports(db, organizationId);
  const now = options.now ?? new Date();
  const view = await getBusinessProfile(db, organizationId, now);
  let doc: SourceDocument;
  let pages: number | undefined;
  if (isPdf) {
    try {
      const pdf = await oneImportAtATime(organizationId, () => pdfToText(file.bytes, options.pdfLimits));
      pages = pdf.pages;
      if (!pdf.text.trim()) throw fileError("This PDF has no text to read (is it a scan?); upload a text version");
      doc = parseText(pdf.text, name);
    } catch (error) {
      if (error instanceof PdfError) {
        if (error.code === "too_large" || error.code === "too_much_text") throw new HttpError(413, `Invalid request: file: ${error.message}`, { file: error.message });
        throw fileError(error.message);
      }
      throw error;
    }
  } else if (isHtml) {
    doc = parseHtml(file.bytes.toString("utf8"), name);
  } else {
    doc = parseText(file.bytes.toString("utf8"), name);
  }
  const raw = extractFacts([doc], { today: todayFor(view, now), website: null });
  const chars = doc.blocks.reduce((n, b) => n + b.text.length + 1, 0);
  return {
    source: { kind: "file", name, contentType: isPdf ? "application/pdf" : isHtml ? "text/html" : "text/plain", ...(pages ? { pages } : {}) },
    pages: [{ url: name, status: null, title: doc.title, chars, error: null }],
    facts: describeFacts(raw, view),
  };
}

/** Imports from pasted text (JSON `{text}`): the same reading as a text file. */
export async function importFromText(db: Db, organizationId: string, text: string, name = "Pasted text", options: ImportOptions = {}): Promise<ImportResult> {
  await limitImports(db, organizationId);
  const now = options.now ?? new Date();
  const view = await getBusinessProfile(db, organizationId, now);
  const doc = parseText(text, name);
  const raw = extractFacts([doc], { today: todayFor(view, now), website: null });
  const chars = doc.blocks.reduce((n, b) => n + b.text.length + 1, 0);
  return { source: { kind: "text", name }, pages: [{ url: name, status: null, title: "", chars, error: null }], facts: describeFacts(raw, view) };
}
