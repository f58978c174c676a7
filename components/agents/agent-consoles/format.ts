/** "just now", "42 s ago", "5 min ago", "3 h ago", else the date and time. */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/**
 * Parses a metadata/payload text field: an empty field is `{}`; anything else must be a JSON
 * object. Answers null when it is not (the form then does not submit, as the spec says).
 */
export function parseJsonObject(text: string, empty: Record<string, unknown> = {}): Record<string, unknown> | null {
  if (!text.trim()) return empty;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
