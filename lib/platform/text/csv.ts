/**
 * CSV rows as the reports export them (the master admin's Export Report, a saved report's run):
 * cells with commas, quotes or line breaks quoted, text that would start a formula prefixed with an
 * apostrophe, numbers as numbers. (Compliance exports use lib/compliance/csv.ts: a header and a BOM.)
 */
export function csvEscape(value: unknown): string {
  if (typeof value === "number") return String(value);
  const s = value === null || value === undefined ? "" : String(value);
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${(/^[=+\-@]/.test(s) ? "'" : "") + s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: unknown[][]): string {
  return rows.map((row) => row.map(csvEscape).join(",")).join("\r\n") + "\r\n";
}
