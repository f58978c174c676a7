/**
 * CSV a spreadsheet opens as it is (RFC 4180, CRLF, UTF-8 with a byte-order mark so Excel reads
 * accents), with text cells that would start a formula (= + - @ tab, CR) prefixed with an apostrophe
 * (OWASP "CSV injection"); numbers are written as numbers.
 */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (value: string | number | null | undefined) => {
    let text = value === null || value === undefined ? "" : String(value);
    // Numbers are data (a negative count is not a formula); text that would start one is defused.
    if (typeof value !== "number" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `\uFEFF${[header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}

export function csvResponse(filename: string, csv: string): Response {
  return new Response(csv, {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"`, "cache-control": "no-store" },
  });
}
