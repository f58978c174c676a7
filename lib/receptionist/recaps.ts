import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, gte, inArray, lt, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { appointments, calls, knowledgeGaps, messages, organizations, recaps, recapSettings, tasks, type RecapContent, type RecapItem } from "@/db/schema";
import { localMoment, toMinutes } from "@/lib/knowledge/business-profile/hours";
import { postToSlack } from "./slack";
import { defineJob } from "@/lib/platform/jobs/types";
import { RECAP_LABELS, RECAP_REPLY, OWNER_NOTICES, who } from "@/lib/platform/text/receptionist";
import { escapeHtml } from "@/lib/platform/outbound/mail";
import { absoluteLink, notifyOwners } from "./notify";
import { recapReference, recapRepliesEnabled, recapReplyAddress } from "./recap-replies";
import type { RecapSettingsInput } from "./schema";
import { errorForLog } from "@/lib/platform/database-errors";
import { inZone } from "./time-words";

/**
 * The daily recap (docs/receptionist.md#daily-recap): at the organization's chosen local time (in the
 * business profile's time zone, UTC without one) the `recap.sweep` job builds, for the 24 hours up to
 * that moment, the calls answered, missed, spam blocked, new tasks, knowledge gaps and bookings —
 * each with its links. It is kept for the Recaps page (one per local date), and sent per the
 * notification switches (in-app notice with systemUpdates, e-mail with emailNotifications) and to
 * Slack when connected.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_LINES = 10;

export { inZone };

export type RecapSettingsView = { enabled: boolean; localTime: string; timezone: string };

async function orgOf(db: Db, organizationId: string) {
  const [org] = await db.select({ name: organizations.name, profile: organizations.businessProfile }).from(organizations).where(eq(organizations.id, organizationId));
  return org ?? null;
}

export async function getRecapSettings(db: Db, organizationId: string): Promise<RecapSettingsView> {
  const [[row], org] = await Promise.all([db.select().from(recapSettings).where(eq(recapSettings.organizationId, organizationId)), orgOf(db, organizationId)]);
  return { enabled: row?.enabled ?? true, localTime: row?.localTime ?? "18:00", timezone: org?.profile.timezone ?? "UTC" };
}

export async function updateRecapSettings(db: Db, organizationId: string, input: RecapSettingsInput): Promise<RecapSettingsView> {
  const current = await getRecapSettings(db, organizationId);
  const next = { enabled: input.enabled ?? current.enabled, localTime: input.localTime ?? current.localTime };
  await db
    .insert(recapSettings)
    .values({ organizationId, ...next })
    .onConflictDoUpdate({ target: recapSettings.organizationId, set: { ...next, updatedAt: new Date() } });
  return { ...current, ...next };
}

function item(label: string, link: string, lines: { text: string; link: string }[], count = lines.length): RecapItem {
  return { label, count, link, lines: lines.slice(0, MAX_LINES) };
}

const callLink = (id: string) => `/call-history?call=${id}`;

/** What the recap says for the 24 hours up to `now` (every figure counted from the database). */
export async function recapContent(db: Db, organizationId: string, now: Date): Promise<RecapContent> {
  const org = await orgOf(db, organizationId);
  const timezone = org?.profile.timezone ?? "UTC";
  const from = new Date(now.getTime() - DAY_MS);
  const inCalls = and(eq(calls.organizationId, organizationId), gte(calls.startedAt, from), lt(calls.startedAt, now));
  const [callRows, spamTexts, newTasks, gaps, bookings] = await Promise.all([
    db
      .select({ id: calls.id, from: calls.fromNumber, name: calls.callerName, outcome: calls.outcome, status: calls.status, isSpam: calls.isSpam, summary: calls.summary })
      .from(calls)
      .where(and(inCalls, eq(calls.direction, "inbound")))
      .orderBy(desc(calls.startedAt)),
    db
      .select({ id: messages.id, from: messages.fromNumber })
      .from(messages)
      .where(and(eq(messages.organizationId, organizationId), eq(messages.isSpam, true), gte(messages.createdAt, from), lt(messages.createdAt, now))),
    db
      .select({ id: tasks.id, title: tasks.title })
      .from(tasks)
      .where(and(eq(tasks.organizationId, organizationId), gte(tasks.createdAt, from), lt(tasks.createdAt, now)))
      .orderBy(desc(tasks.createdAt)),
    db
      .select({ id: knowledgeGaps.id, question: knowledgeGaps.question, status: knowledgeGaps.status })
      .from(knowledgeGaps)
      .where(and(eq(knowledgeGaps.organizationId, organizationId), gte(knowledgeGaps.firstAskedAt, from), lt(knowledgeGaps.firstAskedAt, now), ne(knowledgeGaps.status, "dismissed")))
      .orderBy(desc(knowledgeGaps.firstAskedAt)),
    db
      .select({ id: appointments.id, service: appointments.serviceName, customer: appointments.customerName, startsAt: appointments.startsAt })
      .from(appointments)
      .where(and(eq(appointments.organizationId, organizationId), eq(appointments.status, "confirmed"), gte(appointments.createdAt, from), lt(appointments.createdAt, now)))
      .orderBy(desc(appointments.createdAt)),
  ]);
  const spam = callRows.filter((c) => c.isSpam);
  const real = callRows.filter((c) => !c.isSpam);
  const answered = real.filter((c) => c.outcome === "answered_by_assistant" || c.outcome === "transferred");
  const missed = real.filter((c) => c.outcome === "missed" || c.outcome === "voicemail" || c.outcome === "failed");
  const outcomeWords: Record<string, string> = { answered_by_assistant: "answered by the assistant", transferred: "transferred", missed: "missed", voicemail: "left a voicemail", failed: "not answered (the assistant failed)" };
  const callLine = (c: (typeof callRows)[number]) => ({ text: `${who(c.name, c.from)}: ${outcomeWords[c.outcome ?? ""] ?? c.status}${c.summary ? ` — ${c.summary}` : ""}`, link: callLink(c.id) });
  return {
    date: localMoment(now, timezone).date,
    timezone,
    from: from.toISOString(),
    to: now.toISOString(),
    answered: item(RECAP_LABELS.answered, "/call-history?type=call", answered.map(callLine)),
    missed: item(RECAP_LABELS.missed, "/call-history?type=call", missed.map(callLine)),
    spamBlocked: item(
      RECAP_LABELS.spamBlocked,
      "/call-history?spam=true",
      [...spam.map((c) => ({ text: `Call from ${c.from}`, link: callLink(c.id) })), ...spamTexts.map((m) => ({ text: `Text from ${m.from}`, link: `/call-history?message=${m.id}` }))],
    ),
    newTasks: item(RECAP_LABELS.newTasks, "/tasks", newTasks.map((t) => ({ text: t.title, link: `/tasks?task=${t.id}` }))),
    knowledgeGaps: item(RECAP_LABELS.knowledgeGaps, "/settings/business#knowledge-gaps", gaps.map((g) => ({ text: `${g.question}${g.status === "answered" ? " (answered)" : ""}`, link: "/settings/business#knowledge-gaps" }))),
    bookings: item(RECAP_LABELS.bookings, "/appointments", bookings.map((b) => ({ text: `${b.customer}: ${b.service}, ${inZone(b.startsAt, timezone)}`, link: `/appointments?appointment=${b.id}` }))),
  };
}

export const RECAP_SECTIONS = ["answered", "missed", "spamBlocked", "newTasks", "knowledgeGaps", "bookings"] as const;

/**
 * The recap as an e-mail, Slack text and subject. New tasks are numbered (1, 2, …) so a reply can
 * say "done 2"; with `reference` (replies are on, ./recap-replies.ts) the e-mail says how, and
 * carries the signed reference the reply is matched by.
 */
export function recapText(business: string, content: RecapContent, reference?: string): { subject: string; text: string; html: string; slack: string } {
  const subject = OWNER_NOTICES.recap(business, content.date);
  const text = [
    subject,
    "",
    ...RECAP_SECTIONS.flatMap((key) => {
      const s = content[key];
      const bullet = (i: number) => (key === "newTasks" ? `${i + 1}.` : "-");
      return [`${s.label}: ${s.count}  ${absoluteLink(s.link)}`, ...s.lines.map((l, i) => `  ${bullet(i)} ${l.text}  ${absoluteLink(l.link)}`)];
    }),
    ...(reference ? ["", RECAP_REPLY.howTo(reference)] : []),
  ].join("\n");
  const html = [
    `<h2>${escapeHtml(subject)}</h2>`,
    ...RECAP_SECTIONS.map((key) => {
      const s = content[key];
      const lines = s.lines.map((l) => `<li><a href="${escapeHtml(absoluteLink(l.link))}">${escapeHtml(l.text)}</a></li>`).join("");
      const list = key === "newTasks" ? "ol" : "ul";
      return `<h3><a href="${escapeHtml(absoluteLink(s.link))}">${escapeHtml(s.label)}: ${s.count}</a></h3>${lines ? `<${list}>${lines}</${list}>` : ""}`;
    }),
    ...(reference ? [`<p>${escapeHtml(RECAP_REPLY.howTo(reference))}</p>`] : []),
  ].join("\n");
  const slack = [`*${subject}*`, ...RECAP_SECTIONS.map((key) => `${content[key].label}: ${content[key].count} <${absoluteLink(content[key].link)}|open>`)].join("\n");
  return { subject, text, html, slack };
}

export type RecapView = { id: string; date: string; content: RecapContent; deliveredTo: string[]; createdAt: string };

function toView(row: typeof recaps.$inferSelect): RecapView {
  return { id: row.id, date: row.date, content: row.content, deliveredTo: row.deliveredTo, createdAt: row.createdAt.toISOString() };
}

/**
 * Builds the recap for the local date of `now` and delivers it. Once per organization and date:
 * a second build that day (the run-now button) replaces the content and is delivered again.
 */
export async function buildRecap(db: Db, organizationId: string, now = new Date(), options: { onlyIfNew?: boolean } = {}): Promise<RecapView | null> {
  const content = await recapContent(db, organizationId, now);
  const [inserted] = await db
    .insert(recaps)
    .values({ id: crypto.randomUUID(), organizationId, date: content.date, content, createdAt: now })
    .onConflictDoNothing({ target: [recaps.organizationId, recaps.date] })
    .returning();
  let row = inserted;
  if (!row) {
    if (options.onlyIfNew) return null;
    [row] = await db
      .update(recaps)
      .set({ content, createdAt: now })
      .where(and(eq(recaps.organizationId, organizationId), eq(recaps.date, content.date)))
      .returning();
  }
  const org = await orgOf(db, organizationId);
  const rendered = recapText(org?.name ?? "your business", content, recapRepliesEnabled() ? recapReference(row.id) : undefined);
  const delivered = new Set<string>(["in_app"]);
  const sent = await notifyOwners(
    db,
    { organizationId, kind: "recap", title: rendered.subject, body: RECAP_SECTIONS.map((k) => `${content[k].label}: ${content[k].count}`).join(" · "), link: `/recaps?date=${content.date}` },
    { subject: rendered.subject, text: rendered.text, html: rendered.html, replyTo: recapReplyAddress(row.id) },
  );
  if (sent.emails) delivered.add("email");
  if (await postToSlack(db, organizationId, "recap.daily", rendered.slack, { recapId: row.id })) delivered.add("slack");
  [row] = await db
    .update(recaps)
    .set({ deliveredTo: [...delivered] })
    .where(and(eq(recaps.id, row.id), eq(recaps.organizationId, organizationId)))
    .returning();
  return toView(row);
}

/** GET /api/recaps: the latest 30. */
export async function listRecaps(db: Db, organizationId: string): Promise<{ recaps: RecapView[]; settings: RecapSettingsView }> {
  const [rows, settings] = await Promise.all([
    db.select().from(recaps).where(eq(recaps.organizationId, organizationId)).orderBy(desc(recaps.date)).limit(30),
    getRecapSettings(db, organizationId),
  ]);
  return { recaps: rows.map(toView), settings };
}

/** Every organization whose recap time has come today (local) and has no recap for today yet. */
export async function runDueRecaps(db: Db, now = new Date()): Promise<string[]> {
  const orgs = await db
    .select({ id: organizations.id, profile: organizations.businessProfile, enabled: recapSettings.enabled, localTime: recapSettings.localTime })
    .from(organizations)
    .leftJoin(recapSettings, eq(recapSettings.organizationId, organizations.id));
  const due = orgs.filter((o) => {
    if (o.enabled === false) return false;
    const local = localMoment(now, o.profile.timezone ?? "UTC");
    return local.minutes >= toMinutes(o.localTime ?? "18:00");
  });
  if (!due.length) return [];
  const have = await db
    .select({ organizationId: recaps.organizationId, date: recaps.date })
    .from(recaps)
    .where(inArray(recaps.organizationId, due.map((o) => o.id)));
  const done = new Set(have.map((r) => `${r.organizationId}:${r.date}`));
  const built: string[] = [];
  for (const o of due) {
    if (done.has(`${o.id}:${localMoment(now, o.profile.timezone ?? "UTC").date}`)) continue;
    try {
      if (await buildRecap(db, o.id, now, { onlyIfNew: true })) built.push(o.id);
    } catch (error) {
      console.error(`[recaps] the recap of ${o.id} failed:`, errorForLog(error));
    }
  }
  return built;
}

export const recapSweepJob = defineJob({
  name: "recap.sweep",
  everySeconds: 60,
  retryLimit: 0,
  async handler(_data, { db }) {
    await runDueRecaps(db);
  },
});
