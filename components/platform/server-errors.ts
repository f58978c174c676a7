/**
 * The `{field: message}` map of a 400/409 answer, from an error thrown by apiRequest
 * ("STATUS: body"), or null when the body has none.
 */
export function serverFieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof Error)) return null;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return null;
  try {
    const parsed: unknown = JSON.parse(match[1]);
    if (parsed && typeof parsed === "object" && "errors" in parsed) {
      const errors = (parsed as { errors: unknown }).errors;
      if (errors && typeof errors === "object") return errors as Record<string, string>;
    }
  } catch {
    // Not JSON.
  }
  return null;
}

/** The same map, or `{}` when the answer has none (for forms that read `errors.field` directly). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return serverFieldErrors(error) ?? {};
}
