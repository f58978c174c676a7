import { z } from "zod";
import { businessPhone, faq, holiday, isTimeZone, policy, website, weeklyHours } from "./schema";

/**
 * A fact found by an import (a website or a document), as the owner confirms it: nothing from an
 * import counts until it is sent back to POST /api/business-profile/import/apply. The import adds
 * `id`, `source` (the page or file), `evidence` (the words it came from) and `current` (what the
 * profile says now) for the confirmation screen; apply reads only the fact itself.
 */
const serviceFact = z.object({
  kind: z.literal("service"),
  name: z.string().trim().min(1, "Service name is required").max(80, "Service name must be at most 80 characters"),
  description: z.string().trim().max(500).optional(),
  durationMinutes: z.number().int().min(5).max(1440).optional(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  priceText: z.string().trim().max(60).optional(),
});

export const importFact = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("name"), value: z.string().trim().min(1, "Business name is required").max(100) }),
    z.object({ kind: z.literal("address"), value: z.string().trim().min(1, "Address is required").max(300) }),
    z.object({ kind: z.literal("phone"), value: businessPhone.refine((v) => v !== null, "Phone is required") }),
    z.object({ kind: z.literal("website"), value: website.refine((v) => v !== null, "Website is required") }),
    z.object({ kind: z.literal("timezone"), value: z.string().trim().refine(isTimeZone, "Unknown time zone") }),
    z.object({ kind: z.literal("hours"), weeklyHours }),
    holiday.extend({ kind: z.literal("holiday") }),
    serviceFact,
    policy.extend({ kind: z.literal("policy") }),
    faq.extend({ kind: z.literal("faq") }),
  ],
  "Each fact needs a kind: name, address, phone, website, timezone, hours, holiday, service, policy or faq",
);
export type ImportFactInput = z.infer<typeof importFact>;
export type ImportFactKind = ImportFactInput["kind"];

export const applyImportInput = z.object({
  facts: z.array(importFact, "facts must be a list").min(1, "Choose at least one fact to add").max(500, "At most 500 facts at once"),
});
export type ApplyImportInput = z.infer<typeof applyImportInput>;

/** What an import answers for each fact (the confirmation screen's row). */
export type ImportedFact = ImportFactInput & {
  id: string;
  /** The page URL or the file name it came from. */
  source: string;
  /** The words on the page it was read from. */
  evidence: string;
  /** "new": the profile has nothing there; "same": it already says this; "changes": it says something else (`current`). */
  status: "new" | "same" | "changes";
  current?: string;
};

/** POST /api/business-profile/import as JSON: a website address, or pasted text. (Files: multipart, field `file`.) */
export const importInput = z
  .object({
    url: z.string("Enter your website's address").trim().max(2000, "The address is too long").optional(),
    text: z.string().trim().max(500_000, "The text is too long; upload it as a file").optional(),
    name: z.string().trim().max(200).optional(),
  })
  .refine((v) => Boolean(v.url) || Boolean(v.text), { message: "Enter your website's address, e.g. https://example.com", path: ["url"] });
export type ImportInput = z.infer<typeof importInput>;
