import type { ConversationAnalysis, ConversationInput, Intent } from "./interface";
import { sentimentLabel } from "./interface";
import { classifyIntent, isGoodbye, mentionedWhen } from "./intents";

/**
 * The offline post-call analysis: what the language model does with a key, done with rules over
 * the caller's own words. Intent per caller turn (the same classifier the local responder uses),
 * sentiment from a small lexicon with negations, a summary built from what was asked and how the
 * call ended, and action items from what the team must follow up. Deterministic.
 */

const POSITIVE = /\b(thanks|thank you|thank|great|perfect|wonderful|awesome|excellent|appreciate\w*|helpful|lovely|amazing|fantastic|happy|glad|pleased|brilliant|nice|good)\b/gi;
const NEGATIVE =
  /\b(problem|issue|terrible|awful|horrible|worst|angry|upset|frustrat\w*|disappoint\w*|rude|unacceptable|ridiculous|broken|wrong|mistake|complain\w*|unhappy|annoy\w*|overcharged|charged twice|still waiting|useless|hate|hurts?|painful|in pain)\b/gi;
const NEGATED_POSITIVE = /\b(not|never|isn't|wasn't|aren't|no longer)\s+(very\s+|so\s+|too\s+)?(happy|great|good|helpful|pleased|nice)\b/gi;

function count(pattern: RegExp, text: string): number {
  return text.match(pattern)?.length ?? 0;
}

/** 1 … 5 from the caller's words: positive words up, negative words (and negated positives) down. */
export function scoreSentiment(callerText: string, intents: Intent[]): number {
  const negated = count(NEGATED_POSITIVE, callerText);
  const cleaned = callerText.replace(NEGATED_POSITIVE, " ");
  const positive = count(POSITIVE, cleaned);
  const negative = count(NEGATIVE, cleaned) + negated + (intents.includes("complaint") ? 1 : 0);
  const raw = positive - negative;
  if (raw >= 2) return 5;
  if (raw === 1) return 4;
  if (raw === 0) return 3;
  if (raw === -1) return 2;
  return 1;
}

const PRIORITY: Intent[] = ["spam", "complaint", "human_handoff", "appointment", "order", "pricing", "hours", "other", "greeting"];

function quote(text: string, max = 100): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

function listJoin(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

type Asked = { intent: Intent; text: string };

function phrase({ intent, text }: Asked): string {
  const when = mentionedWhen(text);
  switch (intent) {
    case "hours":
      return "asked about opening hours";
    case "pricing":
      return "asked about prices";
    case "appointment":
      return when ? `asked to book an appointment for ${when}` : "asked to book an appointment";
    case "human_handoff":
      return "asked to speak with a person";
    case "complaint":
      return `raised a complaint ("${quote(text, 80)}")`;
    case "order":
      return "asked about an order";
    case "spam":
      return "made a sales or spam pitch";
    case "greeting":
      return "said hello";
    default:
      return `said "${quote(text, 80)}"`;
  }
}

function actionFor({ intent, text }: Asked, caller: string): string | null {
  const when = mentionedWhen(text);
  switch (intent) {
    case "appointment":
      return when ? `Confirm the appointment ${caller} requested for ${when}` : `Offer ${caller} an appointment time`;
    case "pricing":
      return `Send ${caller} a quote`;
    case "human_handoff":
      return `Call ${caller} back: they asked to speak with a person`;
    case "complaint":
      return `Follow up on ${caller}'s complaint`;
    case "order":
      return `Check on ${caller}'s order and get back to them`;
    default:
      return null;
  }
}

export function analyzeLocally(input: ConversationInput): ConversationAnalysis {
  const { caller, profile, channel } = input;
  const callerTurns = input.turns.filter((t) => t.speaker === "caller" && t.kind !== "dtmf" && t.text.trim());
  const messages = callerTurns.filter((t) => t.kind === "message");

  // Each caller turn's intent, with the conversation so far as context (a time after "what day?" is a booking).
  const asked: Asked[] = [];
  const history: { role: "user" | "assistant"; content: string; intent?: string | null }[] = [];
  for (const turn of input.turns) {
    if (turn.speaker === "caller" && turn.kind !== "dtmf" && turn.text.trim()) {
      const { intent } = classifyIntent(turn.text, history);
      asked.push({ intent, text: turn.text });
      history.push({ role: "user", content: turn.text, intent });
    } else if (turn.speaker === "assistant") {
      const last = history[history.length - 1];
      history.push({ role: "assistant", content: turn.text, intent: last?.role === "user" ? last.intent : null });
    }
  }
  const intents = asked.map((a) => a.intent);
  const intent = PRIORITY.find((p) => intents.includes(p)) ?? "other";

  if (callerTurns.length === 0) {
    const summary =
      channel === "voicemail"
        ? `${caller} left a voicemail for ${profile.name}, but no words could be made out.`
        : `${caller} called ${profile.name} but did not say anything before the call ended.${input.outcome ? ` Outcome: ${input.outcome}.` : ""}`;
    return {
      summary,
      sentiment: "neutral",
      sentimentScore: 3,
      intent: "other",
      actionItems: channel === "voicemail" ? [`Listen to the voicemail and call ${caller} back`] : [],
    };
  }

  // What was asked, in order, one phrase per distinct intent (greetings only when nothing else was
  // said); of several turns with one intent, the one that names a day or time tells the most.
  const distinct: Asked[] = [];
  for (const a of asked) {
    if (a.intent === "greeting" && asked.some((b) => b.intent !== "greeting")) continue;
    if (a.intent === "other" && messages.some((m) => m.text === a.text)) continue;
    if (isGoodbye(a.text, a.intent)) continue;
    const earlier = a.intent === "other" ? undefined : distinct.find((d) => d.intent === a.intent);
    if (!earlier) distinct.push({ ...a });
    else if (!mentionedWhen(earlier.text) && mentionedWhen(a.text)) earlier.text = a.text;
  }
  const opening = channel === "voicemail" ? `${caller} left a voicemail for ${profile.name}` : `${caller} called ${profile.name}`;
  const sentences = [distinct.length ? `${opening} and ${listJoin(distinct.slice(0, 4).map(phrase))}.` : `${opening}.`];
  if (channel === "voicemail") sentences.push(`The message: "${quote(callerTurns.map((t) => t.text).join(" "), 200)}".`);
  for (const message of messages) sentences.push(`Message for the team: "${quote(message.text, 160)}".`);
  if (input.outcome) sentences.push(`${input.outcome.charAt(0).toUpperCase()}${input.outcome.slice(1)}.`);

  const items = new Set<string>();
  for (const a of distinct) {
    const item = actionFor(a, caller);
    if (item) items.add(item);
  }
  if (messages.length) items.add(`Reply to the message ${caller} left`);
  if (channel === "voicemail") items.add(`Listen to the voicemail and call ${caller} back`);
  if (intent === "spam") items.clear();

  const score = scoreSentiment(callerTurns.map((t) => t.text).join(" "), intents);
  return {
    summary: sentences.join(" "),
    sentiment: sentimentLabel(score),
    sentimentScore: score,
    intent,
    actionItems: [...items].slice(0, 5),
  };
}
