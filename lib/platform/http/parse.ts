import type { z } from "zod";
import { badRequest, HttpError, payloadTooLarge } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the raw body, refusing more than `limit` bytes whatever Content-Length claims. */
export async function readBodyText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

/** Turns zod issues into `{field: message}`, first message per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join(".") : "body";
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The one 400 for fields at fault: "Invalid request: <summary>" with `errors` ({field: message}) for
 * the form. The summary defaults to "field: message; …".
 */
export function invalidRequest(errors: Record<string, string>, summary?: string) {
  const text = summary ?? Object.entries(errors).map(([field, message]) => `${field}: ${message}`).join("; ");
  return badRequest(`Invalid request: ${text}`, errors);
}

export function validationError(error: z.ZodError) {
  return invalidRequest(fieldErrors(error));
}

/** The 400 for the first value (at `path`, or `root` itself) a walk found at fault; `describe` words it with the field's name. */
function invalidAt(path: string[], root: string, describe: (field: string) => string) {
  const field = path.length ? path.join(".") : root;
  const message = describe(field);
  return invalidRequest({ [field]: message }, message);
}

export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = "Send the request body as JSON, with Content-Type: application/json";

/** application/json, or any application/*+json, with or without parameters. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

export const unsupportedMediaType = () => new HttpError(415, UNSUPPORTED_MEDIA_TYPE_MESSAGE);

/**
 * NUL (U+0000) cannot be stored in a PostgreSQL text or jsonb value, and no field of ours has a use
 * for it: any string that holds one — value or key, at any depth — is a 400 naming where it was.
 */
export const NUL_MESSAGE = "must not contain NUL (\\u0000) characters";

function findNul(value: unknown, path: string[], depth = 0): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (depth > 64 || value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key.includes("\u0000")) return [...path, key.replaceAll("\u0000", "\\u0000")];
    const found = findNul(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export function assertNoNul(value: unknown, root = "body"): void {
  const path = findNul(value, []);
  if (!path) return;
  throw invalidAt(path, root, (field) => `${field} ${NUL_MESSAGE}`);
}

/**
 * Dates a schema produced must fit what PostgreSQL and ISO 8601 agree on: years 1 to 9999 (a later
 * year serialises as "+099999-…", which PostgreSQL cannot read). Anything else is a 400, not a 500.
 */
function findBadDate(value: unknown, path: string[], depth = 0): string[] | null {
  if (value instanceof Date) {
    const time = value.getTime();
    if (Number.isNaN(time)) return path;
    const year = value.getUTCFullYear();
    return year < 1 || year > 9999 ? path : null;
  }
  if (depth > 64 || value === null || typeof value !== "object") return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findBadDate(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

function assertDatesInRange(value: unknown): void {
  const path = findBadDate(value, []);
  if (!path) return;
  throw invalidAt(path, "body", (field) => `${field} must be a date between the years 1 and 9999`);
}

/**
 * The body as JSON, checked against `schema`. A non-empty body must be sent as JSON (415 otherwise:
 * a text/plain or form body is what a cross-site form can send without a preflight); malformed JSON,
 * NUL characters and dates out of range are 400s naming the field; more than 1 MB is 413.
 */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const text = await readBodyText(req);
  let raw: unknown;
  if (text.trim() === "") raw = {};
  else {
    if (!isJsonContentType(req.headers.get("content-type"))) throw unsupportedMediaType();
    try {
      raw = JSON.parse(text);
    } catch {
      throw badRequest("Request body must be valid JSON");
    }
  }
  assertNoNul(raw);
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error);
  assertDatesInRange(result.data);
  return result.data;
}

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  assertNoNul(params, "query");
  const result = schema.safeParse(params);
  if (!result.success) throw validationError(result.error);
  assertDatesInRange(result.data);
  return result.data;
}

/** Reads the raw body as bytes (uploads), refusing more than `limit` bytes whatever Content-Length claims. */
export async function readBodyBytes(req: Request, limit: number, tooLarge = payloadTooLarge()): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
