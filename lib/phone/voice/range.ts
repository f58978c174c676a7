/**
 * One HTTP byte range (RFC 9110 §14): "bytes=0-499", "bytes=500-", "bytes=-500". Returns the
 * inclusive range, null to send the whole file (no header, another unit, a malformed value, or
 * several ranges — serving all of it is allowed), or "unsatisfiable" (416).
 */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, from, to] = match;
  if (from === "" && to === "") return null;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    if (size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return "unsatisfiable";
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (end < start) return null; // invalid range: ignore it
  return { start, end };
}
