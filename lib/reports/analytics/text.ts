/** Sentences the analytics screens show (client-safe). */

export const NO_CALLS_IN_RANGE = "No calls in this range";
export const NO_MESSAGES_IN_RANGE = "No messages in this range";
export const NO_REPLIES_IN_RANGE = "No assistant replies in this range";
export const NO_HEALTH_CHECKS = "No health checks recorded yet";

const rangeWords: Record<string, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days", "90d": "90 days" };

export type TrendLine = { label: string; current: number; previous: number; growth: number | null };

/** The Performance Insight: the largest change against the previous period, in words. */
export function performanceInsight(range: string, trends: TrendLine[]): string {
  const period = rangeWords[range] ?? range;
  const measured = trends.filter((t) => t.growth !== null && t.growth !== 0);
  if (measured.length === 0) {
    const started = trends.filter((t) => t.previous === 0 && t.current > 0);
    if (started.length) return `${started[0].label} started this period: ${started[0].current} in the last ${period}, none in the ${period} before.`;
    return trends.some((t) => t.current > 0) ? `No change against the previous ${period}.` : `No activity in the last ${period} or the ${period} before.`;
  }
  const top = measured.reduce((a, b) => (Math.abs(b.growth!) > Math.abs(a.growth!) ? b : a));
  const verb = top.growth! > 0 ? "rose" : "fell";
  return `${top.label} ${verb} ${Math.abs(top.growth!)}% against the previous ${period} (${top.previous} → ${top.current}).`;
}

/** Advanced spec number format: thousands as K and millions as M with one decimal. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (abs >= 1_000) return `${(value / 1_000).toFixed(1)}K`;
  return String(value);
}

/** US dollars with no decimals, compacted when large ($12.3K). */
export function wholeDollars(value: number): string {
  const rounded = Math.round(value);
  return Math.abs(rounded) >= 1_000 ? `$${compactNumber(rounded)}` : `$${rounded}`;
}

/** Minutes and seconds ("2m 5s") from seconds; null → an em dash. */
export function minutesSeconds(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}m ${s % 60}s`;
}

export function growthText(growth: number | null): string {
  if (growth === null) return "no previous data";
  return `${growth > 0 ? "+" : ""}${growth}% vs last period`;
}

/** Snake case to words with capitals: took_message → Took Message. */
export function actionLabel(type: string): string {
  return type
    .split("_")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}
