// @ts-check
/**
 * Reads the text of one PDF in its own worker thread (lib/knowledge/business-profile/import/pdf.ts starts one
 * per document, with a wall-clock limit and resourceLimits, and terminates it when either is hit),
 * so a hostile document costs one thread for a bounded time, never the server's event loop.
 *
 * Before pdf.js sees the file, every Flate-compressed stream that is not an image is inflated with
 * a cap: a small file that inflates to many megabytes of page content is refused, not parsed.
 * While reading, the pages, the text items and the characters are capped too.
 *
 * Started by path at run time (never bundled): plain JavaScript.
 */
import { parentPort, workerData } from "node:worker_threads";
import zlib from "node:zlib";
import { lowerThreadPriority } from "../../../platform/workers/thread-priority.mjs";

lowerThreadPriority(10);

/** @typedef {{ maxPages: number, maxInflatedBytes: number, maxTextItems: number, maxTextChars: number }} Limits */

class DocumentRefused extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Sums the inflated size of the file's Flate streams (images excepted: pdf.js does not decode them
 * to read text); throws once the sum passes the cap.
 * @param {Buffer} bytes @param {number} cap
 */
function checkInflatedSize(bytes, cap) {
  const text = bytes.toString("latin1");
  const streamRe = /<<((?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>|<[^<>]*>)*)>>\s*stream\r?\n/g;
  let total = 0;
  let match;
  while ((match = streamRe.exec(text))) {
    const dict = match[1];
    if (!/\/FlateDecode|\/Fl\b/.test(dict) || /\/Subtype\s*\/Image/.test(dict)) continue;
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    const remaining = cap - total;
    let inflated;
    try {
      inflated = zlib.inflateSync(bytes.subarray(start, end), { maxOutputLength: remaining + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    } catch (error) {
      if (/** @type {{ code?: string }} */ (error).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(cap);
      continue; // a damaged stream: pdf.js decides what it makes of it
    }
    total += inflated.length;
    if (total > cap) throw tooLarge(cap);
    streamRe.lastIndex = end;
  }
}

/** @param {number} cap */
function tooLarge(cap) {
  return new DocumentRefused("too_large", `This PDF unpacks to more than ${Math.round(cap / (1024 * 1024))} MB of content; upload a smaller document`);
}

/** @param {Buffer} bytes @param {Limits} limits */
async function readPdf(bytes, limits) {
  checkInflatedSize(bytes, limits.maxInflatedBytes);
  // pdf.js's worker code in this thread ("fake worker"): no second thread, no relative import.
  /** @type {any} */ (globalThis).pdfjsWorker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (/** @type {{ name?: string }} */ (error)?.name === "PasswordException") {
      throw new DocumentRefused("password", "This PDF is protected by a password; upload a copy without one");
    }
    throw new DocumentRefused("unreadable", "This file could not be read as a PDF");
  }
  const pages = Math.min(doc.numPages, limits.maxPages);
  const out = [];
  let items = 0;
  let chars = 0;
  for (let n = 1; n <= pages; n++) {
    let content;
    try {
      const page = await doc.getPage(n);
      content = await page.getTextContent();
      page.cleanup();
    } catch {
      throw new DocumentRefused("damaged", `Page ${n} of this PDF could not be read (its page tree is damaged); upload a repaired copy`);
    }
    let line = "";
    /** @type {number | null} */
    let lastY = null;
    const lines = [];
    for (const raw of /** @type {{ str?: string, hasEOL?: boolean, transform?: number[] }[]} */ (content.items)) {
      if (typeof raw.str !== "string") continue;
      items += 1;
      chars += raw.str.length;
      if (items > limits.maxTextItems || chars > limits.maxTextChars) {
        throw new DocumentRefused("too_much_text", "This PDF holds more text than an import reads; upload the pages about your business");
      }
      const y = raw.transform?.[5] ?? null;
      if (lastY !== null && y !== null && Math.abs(y - lastY) > 2 && line.trim()) {
        lines.push(line);
        line = "";
      }
      line += line && raw.str && !line.endsWith(" ") && !raw.str.startsWith(" ") ? ` ${raw.str}` : raw.str;
      if (raw.hasEOL) {
        lines.push(line);
        line = "";
      }
      if (y !== null) lastY = y;
    }
    if (line.trim()) lines.push(line);
    out.push(lines.map((l) => l.replace(/\s+/g, " ").trim()).filter(Boolean).join("\n"));
  }
  const numPages = doc.numPages;
  await doc.destroy();
  return { text: out.join("\n\n"), pages: numPages };
}

const { bytes, limits } = /** @type {{ bytes: Uint8Array, limits: Limits }} */ (workerData);
readPdf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits).then(
  (result) => parentPort?.postMessage({ ok: true, ...result }),
  (error) =>
    parentPort?.postMessage(
      error instanceof DocumentRefused
        ? { ok: false, code: error.code, message: error.message }
        : { ok: false, code: "unreadable", message: "This file could not be read as a PDF" },
    ),
);
