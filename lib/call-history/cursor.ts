/**
 * The opaque history cursor: base64url of JSON {t, id}, where t is the last row's timestamp in
 * whole microseconds since the epoch (PostgreSQL's own precision, so no row is skipped or repeated
 * when timestamps carry microseconds) and id breaks ties.
 */
export type Cursor = { t: string; id: string };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.t, id: cursor.id }), "utf8").toString("base64url");
}

export function decodeCursor(value: string): Cursor | null {
  if (value.length > 512 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!parsed || typeof parsed !== "object") return null;
    const { t, id } = parsed as Record<string, unknown>;
    if (typeof t !== "string" || !/^-?\d{1,17}$/.test(t)) return null;
    if (typeof id !== "string" || id.length === 0 || id.length > 200) return null;
    return { t, id };
  } catch {
    return null;
  }
}
