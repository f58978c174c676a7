import { z } from "zod";

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

/** Query parameters arrive as strings; an empty one (`cursor=`) means "not given". */
export const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** `cursor`: the `nextCursor` of the previous page, decoded; a tampered one is a 400 naming the field. */
export const cursorParam = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((value, ctx) => {
      const decoded = decodeCursor(value);
      if (!decoded) {
        ctx.addIssue({ code: "custom", message: "The cursor is not valid; start again from the first page" });
        return z.NEVER;
      }
      return decoded;
    })
    .optional(),
);

/** `limit`: a whole number from 1 to `max`, `fallback` when not given. */
export function limitParam(fallback: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(max, `limit must be at most ${max}`).default(fallback),
  );
}

/**
 * The one pagination schema of every keyset-paged list (call history, admin users, billing
 * transactions): `?cursor=&limit=`, answered with `{items…, nextCursor}` (docs/api.md#pagination).
 */
export function pageQuery(fallback: number, max: number) {
  return z.object({ cursor: cursorParam, limit: limitParam(fallback, max) });
}
