/**
 * PostgreSQL's "unique_violation" (23505), found on the error itself or on drizzle's wrapper's cause:
 * the one test every service uses for "this already exists".
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
