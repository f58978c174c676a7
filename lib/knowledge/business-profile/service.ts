import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { organizations, services, type BusinessProfile, type TimeRange } from "@/db/schema";
import { preparedStatement } from "@/lib/platform/database-statements";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import type { BusinessInfo } from "@/lib/platform/providers/llm/interface";
import { listServices, type ServiceDto } from "@/lib/knowledge/services/service";
import { questionKey } from "@/lib/platform/text/match";
import type { ImportFactInput } from "./facts";
import { formatClock, hasWeeklyHours, openStatus, summarizeWeek } from "./hours";
import { renderKnowledge } from "./knowledge";
import { WEEKDAYS, type BusinessProfileInput, type Weekday } from "./schema";

/**
 * The organization's business profile (organizations.business_profile, jsonb) and name: what
 * GET/PUT /api/business-profile read and write, the facts an import applies, and the knowledge the
 * assistant answers from. Writes lock the organization row, so an FAQ added by a knowledge-gap
 * answer and a save from the Business screen never overwrite each other.
 */
export type BusinessProfileView = {
  name: string;
  timezone: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  currency: string;
  /** All seven days; an empty list is closed. */
  weeklyHours: Record<Weekday, TimeRange[]>;
  holidays: { date: string; name: string | null; hours: TimeRange[] }[];
  policies: { title: string; text: string }[];
  faqs: { question: string; answer: string }[];
  services: ServiceDto[];
  /** "Monday to Friday 8 AM–6 PM; …", or null without hours. */
  hoursSummary: string | null;
  /** Open now? In the business's time zone; null without a time zone or hours. */
  status: { openNow: boolean; label: string; localDate: string; localTime: string; timezone: string } | null;
  /** Free-text hours and service names saved before structured hours and the service table. */
  legacy: { hours: string | null; services: string[] };
  updatedAt: string;
};

async function loadOrganization(db: DbOrTx, organizationId: string, lock = false) {
  const columns = { name: organizations.name, profile: organizations.businessProfile, updatedAt: organizations.updatedAt };
  // Read on every assistant turn: planned once (lib/platform/database-statements.ts).
  const [org] = lock
    ? await db.select(columns).from(organizations).where(eq(organizations.id, organizationId)).for("update")
    : await preparedStatement(db, "switchboard_organization_profile", () =>
        db.select(columns).from(organizations).where(eq(organizations.id, sql.placeholder("organizationId"))),
      ).execute({ organizationId });
  if (!org) throw notFound("Organization");
  return { ...org, profile: (org.profile ?? {}) as BusinessProfile };
}

function toView(org: { name: string; profile: BusinessProfile; updatedAt: Date }, serviceRows: ServiceDto[], now: Date): BusinessProfileView {
  const p = org.profile;
  const status = openStatus(p, now);
  return {
    name: org.name,
    timezone: p.timezone ?? null,
    address: p.address ?? null,
    phone: p.phone ?? null,
    website: p.website ?? null,
    currency: p.currency ?? "USD",
    weeklyHours: Object.fromEntries(WEEKDAYS.map((d) => [d, p.weeklyHours?.[d] ?? []])) as Record<Weekday, TimeRange[]>,
    holidays: (p.holidays ?? []).map((h) => ({ date: h.date, name: h.name ?? null, hours: h.hours ?? [] })),
    policies: p.policies ?? [],
    faqs: p.faqs ?? [],
    services: serviceRows,
    hoursSummary: hasWeeklyHours(p) ? summarizeWeek(p.weeklyHours) : (p.hours ?? null),
    status: status
      ? {
          openNow: status.openNow,
          label: status.label,
          localDate: status.local.date,
          localTime: formatClock(`${String(Math.floor(status.local.minutes / 60)).padStart(2, "0")}:${String(status.local.minutes % 60).padStart(2, "0")}`).replace("midnight", "12 AM"),
          timezone: status.timezone,
        }
      : null,
    legacy: { hours: hasWeeklyHours(p) ? null : (p.hours ?? null), services: p.services ?? [] },
    updatedAt: org.updatedAt.toISOString(),
  };
}

export async function getBusinessProfile(db: DbOrTx, organizationId: string, now = new Date()): Promise<BusinessProfileView> {
  const [org, serviceRows] = await Promise.all([loadOrganization(db, organizationId), listServices(db, organizationId)]);
  return toView(org, serviceRows, now);
}

/** Hours mean nothing without the time zone they are in. */
function assertTimezoneForHours(profile: BusinessProfile) {
  const anyHours = hasWeeklyHours(profile) || (profile.holidays ?? []).some((h) => (h.hours?.length ?? 0) > 0);
  if (anyHours && !profile.timezone) {
    throw badRequest("Invalid request: timezone: Choose the time zone your hours are in", {
      timezone: "Choose the time zone your hours are in",
    });
  }
}

function withoutEmpty(profile: BusinessProfile): BusinessProfile {
  const out: BusinessProfile = {};
  for (const [key, value] of Object.entries(profile) as [keyof BusinessProfile, unknown][]) {
    if (value === undefined || value === null || value === "") continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** Writes the profile (and the name) under the organization's row lock; `change` edits a copy. */
async function changeProfile(
  db: DbOrTx,
  organizationId: string,
  change: (profile: BusinessProfile, name: string) => { profile: BusinessProfile; name?: string } | Promise<{ profile: BusinessProfile; name?: string }>,
) {
  await db.transaction(async (tx) => {
    const org = await loadOrganization(tx, organizationId, true);
    const next = await change(structuredClone(org.profile), org.name);
    const profile = withoutEmpty(next.profile);
    assertTimezoneForHours(profile);
    await tx
      .update(organizations)
      .set({ businessProfile: profile, ...(next.name ? { name: next.name } : {}), updatedAt: new Date() })
      .where(eq(organizations.id, organizationId));
  });
}

/** PUT /api/business-profile: fields sent replace what is stored; null or "" clears; left out is kept. */
export async function updateBusinessProfile(db: Db, organizationId: string, input: BusinessProfileInput, now = new Date()): Promise<BusinessProfileView> {
  await changeProfile(db, organizationId, (profile) => {
    const next: BusinessProfile = { ...profile };
    const set = <K extends keyof BusinessProfile>(key: K, value: BusinessProfile[K] | null | undefined) => {
      if (value === undefined) return;
      if (value === null) delete next[key];
      else next[key] = value;
    };
    set("timezone", input.timezone);
    set("address", input.address);
    set("phone", input.phone);
    set("website", input.website);
    set("currency", input.currency);
    if (input.weeklyHours !== undefined) {
      const weekly: BusinessProfile["weeklyHours"] = {};
      for (const d of WEEKDAYS) if (input.weeklyHours[d]?.length) weekly[d] = input.weeklyHours[d];
      next.weeklyHours = weekly;
      // Structured hours replace the earlier free text.
      if (hasWeeklyHours(next)) delete next.hours;
    }
    if (input.holidays !== undefined) {
      next.holidays = input.holidays.map((h) => ({ date: h.date, ...(h.name ? { name: h.name } : {}), ...(h.hours?.length ? { hours: h.hours } : {}) }));
    }
    if (input.policies !== undefined) next.policies = input.policies;
    if (input.faqs !== undefined) next.faqs = input.faqs;
    return { profile: next, name: input.name };
  });
  return getBusinessProfile(db, organizationId, now);
}

/** Adds an FAQ, or replaces the answer of the one asking the same question. Used by knowledge-gap answers. */
export async function upsertFaq(db: DbOrTx, organizationId: string, faq: { question: string; answer: string }) {
  await changeProfile(db, organizationId, (profile) => {
    const faqs = [...(profile.faqs ?? [])];
    const key = questionKey(faq.question);
    const index = faqs.findIndex((f) => questionKey(f.question) === key);
    if (index >= 0) faqs[index] = { question: faqs[index].question, answer: faq.answer };
    else faqs.push(faq);
    return { profile: { ...profile, faqs } };
  });
}

export type ApplyResult = { applied: Record<string, number>; profile: BusinessProfileView };

/**
 * POST /api/business-profile/import/apply: the facts the owner confirmed, merged into the profile.
 * Scalars replace; hours replace the days the fact names (other days are kept); holidays, policies
 * and FAQs replace the entry with the same date / title / question or are added; services update
 * the one with the same name (case-insensitive) or are created.
 */
export async function applyImportedFacts(db: Db, organizationId: string, facts: ImportFactInput[], now = new Date()): Promise<ApplyResult> {
  const applied: Record<string, number> = {};
  const count = (kind: string) => (applied[kind] = (applied[kind] ?? 0) + 1);
  await db.transaction(async (tx) => {
    const org = await loadOrganization(tx, organizationId, true);
    const profile = structuredClone(org.profile);
    let name: string | undefined;
    for (const fact of facts) {
      switch (fact.kind) {
        case "name":
          name = fact.value;
          break;
        case "address":
        case "timezone":
          profile[fact.kind] = fact.value;
          break;
        case "phone":
        case "website":
          if (fact.value) profile[fact.kind] = fact.value;
          break;
        case "hours": {
          const weekly = { ...(profile.weeklyHours ?? {}) };
          for (const d of WEEKDAYS) {
            const ranges = fact.weeklyHours[d];
            if (ranges === undefined) continue;
            if (ranges.length) weekly[d] = ranges;
            else delete weekly[d];
          }
          profile.weeklyHours = weekly;
          if (hasWeeklyHours(profile)) delete profile.hours;
          break;
        }
        case "holiday": {
          const holidays = (profile.holidays ?? []).filter((h) => h.date !== fact.date);
          holidays.push({ date: fact.date, ...(fact.name ? { name: fact.name } : {}), ...(fact.hours?.length ? { hours: fact.hours } : {}) });
          profile.holidays = holidays.sort((a, b) => a.date.localeCompare(b.date));
          break;
        }
        case "policy": {
          const policies = [...(profile.policies ?? [])];
          const index = policies.findIndex((p) => p.title.toLowerCase() === fact.title.toLowerCase());
          if (index >= 0) policies[index] = { title: fact.title, text: fact.text };
          else policies.push({ title: fact.title, text: fact.text });
          profile.policies = policies;
          break;
        }
        case "faq": {
          const faqs = [...(profile.faqs ?? [])];
          const key = questionKey(fact.question);
          const index = faqs.findIndex((f) => questionKey(f.question) === key);
          if (index >= 0) faqs[index] = { question: fact.question, answer: fact.answer };
          else faqs.push({ question: fact.question, answer: fact.answer });
          profile.faqs = faqs;
          break;
        }
        case "service": {
          const [existing] = await tx
            .select({ id: services.id })
            .from(services)
            .where(and(eq(services.organizationId, organizationId), sql`lower(${services.name}) = lower(${fact.name})`))
            .limit(1);
          const price =
            fact.priceCents !== undefined ? { priceCents: fact.priceCents, priceText: null } : fact.priceText ? { priceText: fact.priceText, priceCents: null } : {};
          const values = {
            ...(fact.description ? { description: fact.description } : {}),
            ...(fact.durationMinutes ? { durationMinutes: fact.durationMinutes } : {}),
            ...price,
          };
          if (existing) {
            await tx
              .update(services)
              .set({ ...values, updatedAt: new Date() })
              .where(and(eq(services.id, existing.id), eq(services.organizationId, organizationId)));
          } else {
            await tx.insert(services).values({ id: crypto.randomUUID(), organizationId, name: fact.name, ...values });
          }
          break;
        }
      }
      count(fact.kind);
    }
    const next = withoutEmpty(profile);
    assertTimezoneForHours(next);
    await tx
      .update(organizations)
      .set({ businessProfile: next, ...(name ? { name } : {}), updatedAt: new Date() })
      .where(eq(organizations.id, organizationId));
  });
  return { applied, profile: await getBusinessProfile(db, organizationId, now) };
}

/** What the assistant knows at `now`: the profile and active services, rendered (lib/knowledge/business-profile/knowledge.ts). */
export async function loadKnowledge(db: DbOrTx, organizationId: string, now = new Date()): Promise<BusinessInfo> {
  const [org, serviceRows] = await Promise.all([loadOrganization(db, organizationId), listServices(db, organizationId, { activeOnly: true })]);
  return renderKnowledge(org.name, org.profile, serviceRows, now);
}
