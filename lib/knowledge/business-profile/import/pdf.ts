import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * Text of a PDF, page by page, with Mozilla's pdf.js (pdfjs-dist 4, the legacy build: it runs on
 * Node 20; pdf.js 5.7+ needs Node 22), never evaluating code from the file and loading no fonts or
 * network resources. A scanned PDF has no text layer: the caller says so rather than guessing.
 *
 * Each document is read in a worker thread of its own (./pdf-worker.mjs), off the event loop,
 * within PDF_LIMITS (docs/security.md "Document imports"): a wall-clock limit and a heap limit
 * after which the thread is terminated, a cap on the inflated size of the page content, on pages,
 * text items and characters. What the worker refuses comes back as a PdfError naming the problem.
 */
export const MAX_PDF_PAGES = 40;

export const PDF_LIMITS = {
  maxPages: MAX_PDF_PAGES,
  /** Page content (Flate streams other than images) after inflating. */
  maxInflatedBytes: 4 * 1024 * 1024,
  maxTextItems: 50_000,
  maxTextChars: 500_000,
  wallClockMs: 20_000,
  heapMb: 192,
};

export type PdfLimits = typeof PDF_LIMITS;

export class PdfError extends Error {
  constructor(
    message: string,
    readonly code: string = "unreadable",
  ) {
    super(message);
    this.name = "PdfError";
  }
}

function workerFile(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "knowledge", "business-profile", "import", "pdf-worker.mjs");
}

export async function pdfToText(data: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<{ text: string; pages: number }> {
  const settings = { ...PDF_LIMITS, ...limits };
  const worker = new Worker(workerFile(), {
    workerData: {
      bytes: new Uint8Array(data),
      limits: { maxPages: settings.maxPages, maxInflatedBytes: settings.maxInflatedBytes, maxTextItems: settings.maxTextItems, maxTextChars: settings.maxTextChars },
    },
    resourceLimits: { maxOldGenerationSizeMb: settings.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  try {
    return await new Promise<{ text: string; pages: number }>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new PdfError(`This PDF took longer than ${Math.round(settings.wallClockMs / 1000)} seconds to read; upload a simpler document`, "too_slow"));
      }, settings.wallClockMs);
      timer.unref();
      worker.once("message", (message: { ok: true; text: string; pages: number } | { ok: false; code: string; message: string }) => {
        clearTimeout(timer);
        if (message.ok) resolve({ text: message.text, pages: message.pages });
        else reject(new PdfError(message.message, message.code));
      });
      worker.once("error", (error) => {
        clearTimeout(timer);
        const limit = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
        reject(new PdfError(limit ? "This PDF needs more memory to read than an import may use; upload a simpler document" : "This file could not be read as a PDF", limit ? "too_large" : "unreadable"));
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        reject(new PdfError("This file could not be read as a PDF"));
      });
    });
  } finally {
    await worker.terminate();
  }
}
