import "server-only";

/**
 * Text of a PDF, page by page, with Mozilla's pdf.js (pdfjs-dist 4, the legacy build: it runs on
 * Node 20; pdf.js 5.7+ needs Node 22). It runs in-process with pdf.js's "fake worker", never
 * evaluates code from the file (`isEvalSupported: false`) and loads no fonts or network resources.
 * A scanned PDF has no text layer: the caller says so rather than guessing.
 */
export const MAX_PDF_PAGES = 40;

type TextItem = { str: string; hasEOL?: boolean; transform?: number[] };

export class PdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PdfError";
  }
}

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let loading: Promise<PdfJs> | null = null;

/**
 * pdf.js, with its worker's message handler loaded in this thread: pdf.js then uses it directly
 * ("fake worker") instead of importing `./pdf.worker.mjs` by a relative path at run time.
 */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import("pdfjs-dist/legacy/build/pdf.mjs");
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

export async function pdfToText(data: Uint8Array, maxPages = MAX_PDF_PAGES): Promise<{ text: string; pages: number }> {
  const pdfjs = await loadPdfJs();
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(data), // pdf.js takes ownership of (detaches) the buffer it gets
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "PasswordException") throw new PdfError("This PDF is protected by a password; upload a copy without one");
    throw new PdfError("This file could not be read as a PDF");
  }
  try {
    const pages = Math.min(doc.numPages, maxPages);
    const out: string[] = [];
    for (let n = 1; n <= pages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = "";
      let lastY: number | null = null;
      const lines: string[] = [];
      for (const raw of content.items as TextItem[]) {
        if (typeof raw.str !== "string") continue;
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
      page.cleanup();
    }
    return { text: out.join("\n\n"), pages: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
