/**
 * Issue 26 §5: a hostile PDF cannot stop the server. Documents are read in a worker thread with a
 * wall-clock and a heap limit; a file that inflates far beyond its size, holds too much text or
 * whose page tree points to itself is a 4xx naming the problem; one organization runs one import
 * at a time; the event loop keeps answering meanwhile.
 */
import zlib from "node:zlib";
import { POST as importRoute } from "@/app/api/business-profile/import/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { importFromFile } from "@/lib/knowledge/business-profile/import/service";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { watchEventLoop } from "../helpers/event-loop";
import { makePdf } from "../helpers/pdf";

jest.setTimeout(120_000);
afterAll(() => closeDb());

/** A PDF built object by object; `content` is the page's content stream, Flate-compressed. */
function pdfWith(objects: string[] | ((stream: (body: Buffer) => string) => string[])): Buffer {
  const chunks: Buffer[] = [];
  const streams: Buffer[] = [];
  const stream = (body: Buffer) => {
    streams.push(zlib.deflateSync(body, { level: 9 }));
    return `__STREAM_${streams.length - 1}__`;
  };
  const bodies = typeof objects === "function" ? objects(stream) : objects;
  let offset = 0;
  const push = (b: Buffer) => {
    chunks.push(b);
    offset += b.length;
  };
  const offsets: number[] = [];
  push(Buffer.from("%PDF-1.5\n", "latin1"));
  bodies.forEach((body, i) => {
    offsets.push(offset);
    const m = /__STREAM_(\d+)__/.exec(body);
    if (m) {
      const data = streams[Number(m[1])];
      push(Buffer.from(`${i + 1} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, "latin1"));
      push(data);
      push(Buffer.from("\nendstream\nendobj\n", "latin1"));
    } else push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, "latin1"));
  });
  const xref = offset;
  push(Buffer.from(`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`, "latin1"));
  push(Buffer.from(`trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}

const page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>";
const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/** A small file whose page content inflates to `megabytes` MB of text-showing operators. */
const bomb = (megabytes: number) =>
  pdfWith((stream) => ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, font, stream(Buffer.from(`BT /F1 12 Tf 72 740 Td ${"(A) Tj ".repeat((megabytes * 1024 * 1024) / 7)} ET`))]);

function upload(account: TestAccount, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
  return importRoute(
    new Request("http://localhost:3000/api/business-profile/import", { method: "POST", body: form, headers: { authorization: `Bearer ${account.sessionId}` } }),
    { params: Promise.resolve({}) },
  );
}

describe("PDF import limits", () => {
  it("refuses a small PDF that inflates to 10 MB with 413 naming the problem, promptly, while the event loop keeps answering", async () => {
    const account = await registerTestUser();
    const file = bomb(10);
    expect(file.length).toBeLessThan(64 * 1024);
    const stopWatching = watchEventLoop(10);
    const started = Date.now();
    const res = await upload(account, "menu.pdf", file);
    const longestGap = stopWatching();
    expect(res.status).toBe(413);
    expect((await res.json()).errors.file).toBe("This PDF unpacks to more than 4 MB of content; upload a smaller document");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(longestGap).toBeLessThan(1_000);
  });

  it("answers 400 for a page tree that points to itself", async () => {
    const account = await registerTestUser();
    const loop = pdfWith(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]);
    const res = await upload(account, "loop.pdf", loop);
    expect(res.status).toBe(400);
    expect((await res.json()).errors.file).toMatch(/page tree is damaged|could not be read as a PDF/);
  });

  it("caps the text read and the wall-clock time in the worker; a good PDF still reads", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const file = { name: "many.pdf", contentType: "application/pdf", bytes: makePdf(["Opening hours", "Mon-Fri 9am-5pm", "Saturday 10am-2pm", "Sunday closed"]) };
    await expect(importFromFile(db, account.organizationId, file, { pdfLimits: { maxTextChars: 20 } })).rejects.toMatchObject({
      status: 413,
      errors: { file: "This PDF holds more text than an import reads; upload the pages about your business" },
    });
    await expect(importFromFile(db, account.organizationId, { ...file, bytes: bomb(1) }, { pdfLimits: { wallClockMs: 1 } })).rejects.toMatchObject({
      status: 400,
      errors: { file: "This PDF took longer than 0 seconds to read; upload a simpler document" },
    });
    const good = await importFromFile(db, account.organizationId, { name: "ok.pdf", contentType: "application/pdf", bytes: makePdf(["Opening hours", "Mon-Fri 9am-5pm"]) });
    expect(good.source).toMatchObject({ kind: "file", pages: 1 });
  });

  it("runs one import per organization at a time (429 for the second), others unaffected", async () => {
    const account = await registerTestUser();
    const other = await registerTestUser();
    const db = await getDb();
    const slow = { name: "slow.pdf", contentType: "application/pdf", bytes: bomb(2) };
    const [first, second, elsewhere] = await Promise.allSettled([
      importFromFile(db, account.organizationId, slow),
      importFromFile(db, account.organizationId, slow),
      importFromFile(db, other.organizationId, { name: "ok.pdf", contentType: "application/pdf", bytes: makePdf(["Opening hours", "Mon-Fri 9am-5pm"]) }),
    ]);
    const statuses = [first, second].map((r) => (r.status === "rejected" ? (r.reason as { status?: number }).status : 200));
    expect(statuses).toContain(429);
    expect(elsewhere.status).toBe("fulfilled");
  });
});
