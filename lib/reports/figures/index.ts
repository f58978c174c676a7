/**
 * One definition of each figure an owner or admin reads (issue 30 point 4), used by every screen that
 * shows it — Analytics, CRM Voice, the dashboard and the admin screens — so the same data never reads
 * two ways. Pure functions of counts the services read from the database.
 *
 * - Sentiment: from the post-call analysis score (1 very negative … 5 very positive). "Positive" is a
 *   score of 4 or 5; the average is the mean score, one decimal; calls not analysed are left out and
 *   the number analysed is always said beside the figure.
 * - Health: the worst state of the components, except that an optional component (the assistant's
 *   voice, voicemail transcription) that is missing or failing makes the system Degraded, named, never
 *   Offline; Offline only when the database or the language model does not answer.
 * - Uptime: health-check runs in which the database and the language model answered, over all runs.
 * - Credits used: credits spent (ledger debits), net of credit-backs, in the window: billing's figure,
 *   read from the ledger's rollups (lib/workspace/billing/credits-used.ts).
 */

export type SentimentCounts = { veryPositive: number; positive: number; neutral: number; negative: number; scoreSum: number };
export type SentimentFigure = { analysedCalls: number; average: number | null; positivePercent: number | null };

export function sentimentFigure(c: SentimentCounts): SentimentFigure {
  const analysedCalls = c.veryPositive + c.positive + c.neutral + c.negative;
  if (analysedCalls === 0) return { analysedCalls, average: null, positivePercent: null };
  return {
    analysedCalls,
    average: Math.round((c.scoreSum / analysedCalls) * 10) / 10,
    positivePercent: Math.round(((c.veryPositive + c.positive) / analysedCalls) * 100),
  };
}

/** The sentence beside a sentiment figure: "68% positive, average 3.9/5 from 41 analysed calls". */
export function sentimentText(f: SentimentFigure): string {
  if (f.analysedCalls === 0 || f.average === null) return "No analysed calls in this range";
  return `${f.positivePercent}% positive, average ${f.average.toFixed(1)}/5 from ${f.analysedCalls} analysed call${f.analysedCalls === 1 ? "" : "s"}`;
}

export type ComponentState = "operational" | "degraded" | "offline" | "unknown";
export type ComponentCheck = { component: string; status: ComponentState; detail: string };
export type HealthProblem = { component: string; name: string; problem: string; howTo: string | null };
export type HealthFigure = { status: ComponentState; headline: string; problems: HealthProblem[] };

/** Without these the phone desk does not work at all. */
export const CORE_COMPONENTS = ["database", "llm"] as const;

export const COMPONENT_NAMES: Record<string, string> = {
  database: "database",
  llm: "assistant's language model",
  tts: "assistant's voice",
  stt: "voicemail transcription",
};

/** Where to read how to fix a component that is not installed (shown behind "how to install"). */
export const INSTALL_HOW_TO: Record<string, string> = {
  stt: "Install PocketSphinx on the server (apt-get install pocketsphinx pocketsphinx-en-us, as root), or add a Deepgram key in Settings → API Keys. See README → Speech.",
  tts: "Install espeak-ng on the server, or add an ElevenLabs key in Settings → API Keys. See README → Speech.",
};

function problemOf(c: ComponentCheck): HealthProblem {
  const name = COMPONENT_NAMES[c.component] ?? c.component;
  const notInstalled = /not installed|no .* installed|not configured/i.test(c.detail);
  const problem = c.status === "degraded" ? "slow" : notInstalled ? "not installed" : c.status === "unknown" ? "not checked yet" : "not answering";
  return { component: c.component, name, problem, howTo: notInstalled ? (INSTALL_HOW_TO[c.component] ?? null) : null };
}

export function healthFigure(checks: ComponentCheck[]): HealthFigure {
  if (checks.length === 0 || checks.every((c) => c.status === "unknown")) {
    return { status: "unknown", headline: "Not checked yet", problems: [] };
  }
  const core = new Set<string>(CORE_COMPONENTS);
  const problems = checks.filter((c) => c.status === "offline" || c.status === "degraded").map(problemOf);
  const coreDown = checks.filter((c) => core.has(c.component) && c.status === "offline");
  const status: ComponentState = coreDown.length ? "offline" : problems.length ? "degraded" : "operational";
  const words = problems.map((p) => `${p.name} ${p.problem}`);
  const headline =
    status === "operational"
      ? "All parts answering"
      : `${status === "offline" ? "Offline" : "Degraded"}: ${words.join("; ")}`.replace(/: (\w)/, (_m, ch: string) => `: ${ch.toLowerCase()}`);
  return { status, headline, problems };
}

/** Uptime as a percentage of checks in which the core components answered; null when nothing was measured. */
export function uptimePercent(runs: number, upRuns: number): number | null {
  return runs > 0 ? Math.round((upRuns / runs) * 1000) / 10 : null;
}
