import { z } from "zod";

/** PUT /api/settings/compliance: any subset of the organization's compliance switches. */
export const complianceSettingsInput = z
  .object({
    noticeEnabled: z.boolean({ error: "noticeEnabled must be true or false" }),
    noticeText: z
      .string({ error: "noticeText must be text" })
      .trim()
      .max(300, "The notice must be at most 300 characters")
      .nullable(),
    businessState: z
      .string({ error: "businessState must be a two-letter US state" })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "businessState must be a two-letter US state")
      .nullable(),
    hipaaMode: z.boolean({ error: "hipaaMode must be true or false" }),
    baaProviders: z.array(z.string().trim().min(1).max(40), { error: "baaProviders must be a list of provider names" }).max(20),
  })
  .partial()
  .strict();
export type ComplianceSettingsInput = z.output<typeof complianceSettingsInput>;

/** POST /api/contacts/{id}/erasure: the owner records a caller's erasure request. */
export const erasureRequestInput = z
  .object({
    confirm: z.literal(true, { error: "Confirm the erasure: it cannot be undone" }),
  })
  .strict();
