import "server-only";
import { safeFetch, UnsafeUrlError } from "@/lib/platform/net/safe-fetch";
import { parseHtml, parseText, type SourceDocument } from "./document";
import { pdfToText } from "./pdf";

/**
 * Reads a business's website a few pages deep: the page given, then the same site's pages it links
 * to (contact, hours, services, prices, FAQ and policy pages first), breadth first. Every request goes
 * through the SSRF guard (lib/platform/net/safe-fetch.ts: public addresses only unless
 * ALLOW_PRIVATE_ENDPOINTS=true, checked again at connect time), redirects are followed by hand only
 * within the site, and pages, depth, bytes and time are bounded.
 */
export type CrawlLimits = {
  maxPages: number;
  maxDepth: number;
  maxBytesPerPage: number;
  maxTotalBytes: number;
  maxRedirects: number;
  /** Per request. */
  timeoutMs: number;
  /** For the whole crawl: pages not reached by then are left out. */
  deadlineMs: number;
};

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = {
  maxPages: 8,
  maxDepth: 2,
  maxBytesPerPage: 1_500_000,
  maxTotalBytes: 6_000_000,
  maxRedirects: 3,
  timeoutMs: 10_000,
  deadlineMs: 40_000,
};

export type CrawledPage = {
  url: string;
  /** HTTP status, or null when no answer came. */
  status: number | null;
  title: string;
  /** Characters of text read from the page. */
  chars: number;
  error: string | null;
};

export class ImportFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFetchError";
  }
}

const USER_AGENT = "SwitchboardImporter/1.0 (reads a business's own website to fill its profile)";
const SKIP_EXTENSIONS = /\.(jpe?g|png|gif|webp|svg|ico|bmp|tiff?|css|js|mjs|json|xml|rss|atom|zip|gz|rar|7z|tar|mp3|mp4|m4a|wav|ogg|webm|mov|avi|woff2?|ttf|eot|otf|docx?|xlsx?|pptx?|csv|ics|exe|dmg|apk)$/i;
const SKIP_PATHS = /\/(wp-admin|wp-login|wp-json|login|logout|signin|sign-in|signup|register|cart|checkout|account|my-account|feed|tag|author|search|cdn-cgi)(\/|$)/i;
const PRIORITY = /(hour|contact|location|visit|find-us|about|service|treatment|pric|rate|menu|fee|faq|question|polic|insurance|payment|cancel|new-patient|appointment|book)/i;

function siteKey(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, "");
}

function normalize(url: URL): string {
  const copy = new URL(url.toString());
  copy.hash = "";
  return copy.toString();
}

type Fetched = { url: string; status: number; contentType: string; body: Buffer; truncated: boolean };

async function readBody(res: Response | Awaited<ReturnType<typeof safeFetch>>, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!res.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { body: Buffer.concat(chunks), truncated };
}

/** GET with redirects followed by hand, each hop re-checked by the guard and kept within the site. */
async function fetchPage(url: string, site: string, limits: CrawlLimits, allowPrivate: boolean | undefined, remainingBytes: number): Promise<Fetched> {
  let current = url;
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    const res = await safeFetch(
      current,
      { method: "GET", headers: { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml,text/plain,application/pdf;q=0.8,*/*;q=0.1" } },
      { timeoutMs: limits.timeoutMs, ...(allowPrivate !== undefined ? { allowPrivate } : {}) },
    );
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      await res.body?.cancel().catch(() => undefined);
      const next = new URL(res.headers.get("location")!, current);
      if (siteKey(next.hostname) !== site || (next.protocol !== "http:" && next.protocol !== "https:")) {
        throw new ImportFetchError(`${current} redirects to another site (${next.host}); import that address instead`);
      }
      current = normalize(next);
      continue;
    }
    const contentType = (res.headers.get("content-type") ?? "").toLowerCase();
    const { body, truncated } = await readBody(res, Math.min(limits.maxBytesPerPage, remainingBytes));
    return { url: current, status: res.status, contentType, body, truncated };
  }
  throw new ImportFetchError(`${url} redirects too many times`);
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function describeError(error: unknown, url: string): string {
  if (error instanceof UnsafeUrlError || error instanceof ImportFetchError) return error.message;
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `${url} did not answer in time`;
  const code = e?.cause?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `The host of ${url} could not be found`;
  if (code === "ECONNREFUSED") return `${url} refused the connection`;
  if (code === "EADDRNOTALLOWED") return e.cause?.message ?? `${url} is not a public address`;
  return `${url} could not be read (${e?.cause?.message ?? e?.message ?? "network error"})`;
}

export type CrawlResult = { pages: CrawledPage[]; docs: SourceDocument[] };

/**
 * Crawls from `startUrl`. The first page must load (otherwise ImportFetchError / UnsafeUrlError
 * with a message for the owner); later pages that fail are listed with their error and skipped.
 */
export async function crawlSite(
  startUrl: string,
  options: { limits?: Partial<CrawlLimits>; allowPrivate?: boolean; now?: () => number } = {},
): Promise<CrawlResult> {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
  const clock = options.now ?? Date.now;
  const deadline = clock() + limits.deadlineMs;
  const start = new URL(startUrl);
  const site = siteKey(start.hostname);
  const queue: { url: string; depth: number; score: number }[] = [{ url: normalize(start), depth: 0, score: 0 }];
  const seen = new Set<string>([normalize(start)]);
  const pages: CrawledPage[] = [];
  const docs: SourceDocument[] = [];
  let totalBytes = 0;

  while (queue.length && pages.length < limits.maxPages && totalBytes < limits.maxTotalBytes) {
    if (pages.length > 0 && clock() > deadline) break;
    // Breadth first; within a depth, the pages most likely to hold facts first.
    queue.sort((a, b) => a.depth - b.depth || b.score - a.score);
    const { url, depth } = queue.shift()!;
    let fetched: Fetched;
    try {
      fetched = await fetchPage(url, site, limits, options.allowPrivate, limits.maxTotalBytes - totalBytes);
    } catch (error) {
      if (pages.length === 0) {
        if (error instanceof UnsafeUrlError) throw error;
        throw new ImportFetchError(describeError(error, url));
      }
      pages.push({ url, status: null, title: "", chars: 0, error: describeError(error, url) });
      continue;
    }
    totalBytes += fetched.body.byteLength;
    seen.add(fetched.url);
    if (fetched.status >= 400) {
      const message = `${fetched.url} answered ${fetched.status}`;
      if (pages.length === 0) throw new ImportFetchError(`${message}; check the address`);
      pages.push({ url: fetched.url, status: fetched.status, title: "", chars: 0, error: message });
      continue;
    }
    let doc: SourceDocument | null = null;
    let error: string | null = null;
    try {
      if (fetched.contentType.includes("pdf") || fetched.body.subarray(0, 5).toString("latin1") === "%PDF-") {
        if (fetched.truncated) error = "The PDF is larger than the import reads";
        else doc = parseText((await pdfToText(fetched.body)).text, fetched.url);
      } else if (fetched.contentType.includes("html") || fetched.contentType.includes("xml") || /^\s*<(!doctype|html|head|body)/i.test(fetched.body.subarray(0, 200).toString("latin1"))) {
        doc = parseHtml(decode(fetched.body, fetched.contentType), fetched.url);
      } else if (fetched.contentType.startsWith("text/") || !fetched.contentType) {
        doc = parseText(decode(fetched.body, fetched.contentType), fetched.url);
      } else {
        error = `Skipped: ${fetched.contentType.split(";")[0]} is not a page`;
      }
    } catch (e) {
      error = (e as Error).message || "The page could not be read";
    }
    if (!doc) {
      if (pages.length === 0) throw new ImportFetchError(error ?? `${fetched.url} has no text to read`);
      pages.push({ url: fetched.url, status: fetched.status, title: "", chars: 0, error });
      continue;
    }
    const chars = doc.blocks.reduce((n, b) => n + b.text.length + 1, 0);
    pages.push({ url: fetched.url, status: fetched.status, title: doc.title, chars, error: null });
    docs.push(doc);
    if (depth >= limits.maxDepth) continue;
    for (const link of doc.links) {
      let target: URL;
      try {
        target = new URL(link.href);
      } catch {
        continue;
      }
      if ((target.protocol !== "http:" && target.protocol !== "https:") || siteKey(target.hostname) !== site) continue;
      if (SKIP_EXTENSIONS.test(target.pathname) || SKIP_PATHS.test(target.pathname)) continue;
      const key = normalize(target);
      if (seen.has(key)) continue;
      seen.add(key);
      const score = (PRIORITY.test(target.pathname) ? 2 : 0) + (PRIORITY.test(link.text) ? 1 : 0) - (target.search ? 1 : 0);
      queue.push({ url: key, depth: depth + 1, score });
    }
  }
  return { pages, docs };
}
