/**
 * PostgreSQL's "unique_violation" (23505), found on the error itself or on drizzle's wrapper's cause:
 * the one test every service uses for "this already exists".
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

type ErrorChain = { code?: unknown; cause?: unknown; name?: unknown; message?: unknown } | null;

function* chain(error: unknown): Generator<NonNullable<ErrorChain>> {
  let e = error as ErrorChain;
  for (let i = 0; e && typeof e === "object" && i < 5; e = e.cause as ErrorChain, i++) yield e;
}

/** The SQLSTATE of a PostgreSQL error (five characters), on the error or a cause; null otherwise. */
export function databaseErrorCode(error: unknown): string | null {
  for (const e of chain(error)) if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return null;
}

/** Socket errors of a driver that cannot reach its server. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * True when the database cannot be reached or is going away (a connection exception, 08xxx; an
 * operator intervention, 57P0x; too many connections, 53300; the driver's socket errors): the
 * request may succeed later, so it is answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    const code = typeof e.code === "string" ? e.code : "";
    if (code.startsWith("08") || /^57P0[1-4]$/.test(code) || code === "53300" || UNREACHABLE.has(code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/**
 * What may be logged of an error. A database error's message carries the statement and its
 * parameters (drizzle's "Failed query: … params: …"): session tokens, message bodies, phone
 * numbers. So a database error is logged by its SQLSTATE and class only; other errors by name and
 * message (they are the code's own).
 */
export function errorForLog(error: unknown): string {
  const code = databaseErrorCode(error);
  if (code) return `database error ${code}`;
  for (const e of chain(error)) {
    const code = typeof e.code === "string" ? e.code : "";
    if (UNREACHABLE.has(code)) return `database unreachable (${code})`;
  }
  if (error instanceof Error) {
    if (/^Failed query:/.test(error.message)) return `${error.name}: a database statement failed`;
    return `${error.name}: ${error.message}`;
  }
  return typeof error === "string" ? error : "unknown error";
}
