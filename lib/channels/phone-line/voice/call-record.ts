import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { appointments, assistantActions, type CallOutcome } from "@/db/schema";
import { carrierName } from "@/lib/agents/conversation/turn";
import type { ConversationAnalysis } from "@/lib/platform/providers/llm/interface";
import type { CallRow } from "./runtime";

/**
 * What a call's record says, from what the engine did (its assistant_action rows and the rows they
 * name), never from what the conversation sounded like: the outcome sentence ("Booked a cleaning for
 * Tom Baker, Tue Dec 1 at 2 PM"), the caller's name as they gave it (a device label such as "Phone
 * panel" is never a name), and the action items without what the engine already did.
 */
export type CallFacts = {
  /** One sentence per thing done, in order; null when nothing was done. */
  outcome: string | null;
  /** The name the caller gave (a message's name, a booking's name), else the carrier's when it names a person. */
  name: string | null;
  booked: boolean;
  optedOut: boolean;
  transferred: boolean;
  messageTaken: boolean;
};

/** "Tue Dec 1 at 2 PM" in the business's zone. */
export function shortWhen(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", hour12: true })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const time = parts.minute === "00" ? `${parts.hour} ${parts.dayPeriod}` : `${parts.hour}:${parts.minute} ${parts.dayPeriod}`;
  return `${parts.weekday} ${parts.month} ${parts.day} at ${time}`;
}

const article = (service: string) => (/^[aeiou]/i.test(service) ? "an" : "a");

export async function callFacts(db: Db, call: Pick<CallRow, "id" | "organizationId" | "callerName">, outcome: CallOutcome, timeZone: string): Promise<CallFacts> {
  const actions = await db
    .select({ type: assistantActions.type, detail: assistantActions.detail })
    .from(assistantActions)
    .where(and(eq(assistantActions.callId, call.id), eq(assistantActions.organizationId, call.organizationId)))
    .orderBy(asc(assistantActions.createdAt));
  const ids = actions.map((a) => a.detail.appointmentId).filter((id): id is string => typeof id === "string");
  const rows = ids.length
    ? await db
        .select({ id: appointments.id, serviceName: appointments.serviceName, startsAt: appointments.startsAt, customerName: appointments.customerName })
        .from(appointments)
        .where(and(eq(appointments.organizationId, call.organizationId), inArray(appointments.id, ids)))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const sentences: string[] = [];
  let name: string | null = null;
  const facts = { booked: false, optedOut: false, transferred: false, messageTaken: false };
  for (const a of actions) {
    const appointment = typeof a.detail.appointmentId === "string" ? byId.get(a.detail.appointmentId) : undefined;
    if (appointment && (a.type === "appointment_booked" || a.type === "appointment_moved" || a.type === "appointment_cancelled")) {
      const service = appointment.serviceName.toLowerCase();
      const when = shortWhen(appointment.startsAt, timeZone);
      const who = appointment.customerName?.trim() || null;
      name = name ?? carrierName(who);
      facts.booked = true;
      if (a.type === "appointment_booked") sentences.push(`Booked ${article(service)} ${service}${who ? ` for ${who}` : ""}, ${when}`);
      else if (a.type === "appointment_moved") sentences.push(`Moved ${who ? `${who}'s` : "the"} ${service} to ${when}`);
      else sentences.push(`Cancelled ${who ? `${who}'s` : "the"} ${service} on ${when}`);
    } else if (a.type === "took_message") {
      facts.messageTaken = true;
      const given = typeof a.detail.name === "string" ? carrierName(a.detail.name) : null;
      name = name ?? given;
      sentences.push(a.detail.urgent ? "Took an urgent message for the team (a task)" : "Took a message for the team (a task)");
    } else if (a.type === "opted_out") {
      facts.optedOut = true;
      sentences.push("Opted the caller out of texts and calls, as they asked");
    } else if (a.type === "transferred") {
      facts.transferred = true;
      sentences.push(`Transferred the call to ${typeof a.detail.to === "string" ? a.detail.to : "the team"}`);
    } else if (a.type === "voicemail_recorded") {
      sentences.push("The caller left a voicemail");
    }
  }
  if (!sentences.length) {
    if (outcome === "missed") sentences.push("The call was missed");
    else if (outcome === "failed") sentences.push("The assistant could not answer the call");
    else if (outcome === "blocked") sentences.push("The call was blocked");
  }
  const unique = [...new Set(sentences)];
  return { outcome: unique.length ? unique.join("; ") : null, name: name ?? carrierName(call.callerName), ...facts };
}

/** Action items about what the engine already did (booked, opted out, transferred) are not the team's to do. */
const DONE_ITEMS: { fact: keyof Pick<CallFacts, "booked" | "optedOut" | "transferred">; pattern: RegExp }[] = [
  { fact: "booked", pattern: /\b(book|schedul|reschedul|appointment|confirm (?:the|their) (?:time|slot)|cancel)/i },
  { fact: "optedOut", pattern: /\b(opt(?:ed)? ?out|unsubscrib|(?:remove|take) .* (?:list|texts)|stop (?:texting|calling))/i },
  { fact: "transferred", pattern: /\b(transfer|connect (?:them|the caller))/i },
];

/** The analysis made truthful: the outcome first in the summary, the caller's given name, and only the items left to do. */
export function truthfulAnalysis(analysis: ConversationAnalysis, facts: CallFacts, shownCaller: string | null): ConversationAnalysis {
  let summary = analysis.summary.trim();
  if (shownCaller && facts.name === null) {
    // A device label the analysis may have repeated ("Phone panel called …") is not a caller's name.
    summary = summary.split(shownCaller).join("The caller");
  }
  if (facts.outcome) {
    // The outcome leads: said once, first.
    const at = summary.toLowerCase().indexOf(facts.outcome.toLowerCase());
    if (at >= 0) summary = `${summary.slice(0, at)}${summary.slice(at + facts.outcome.length).replace(/^\.\s*/, "")}`.replace(/\s+/g, " ").trim();
    summary = `${facts.outcome}. ${summary}`.trim();
  }
  const actionItems = analysis.actionItems.filter((item) => !DONE_ITEMS.some((d) => facts[d.fact] && d.pattern.test(item)));
  return { ...analysis, summary, actionItems };
}
