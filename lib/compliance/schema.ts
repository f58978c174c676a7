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
    recordCalls: z.boolean({ error: "recordCalls must be true or false" }),
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

/** POST /api/compliance/messaging-registration: the brand and campaign (A2P 10DLC). */
export const registrationInput = z
  .object({
    brandName: z.string({ error: "brandName is required" }).trim().min(1, "brandName is required").max(120, "brandName must be at most 120 characters"),
    useCase: z.enum(["CUSTOMER_CARE", "MIXED", "LOW_VOLUME", "ACCOUNT_NOTIFICATION"], { error: "useCase must be CUSTOMER_CARE, MIXED, LOW_VOLUME or ACCOUNT_NOTIFICATION" }).default("CUSTOMER_CARE"),
    customerProfileBundleSid: z.string().trim().regex(/^BU[0-9a-f]{32}$/, "customerProfileBundleSid must be a Trust Hub bundle SID (BU…)").optional(),
    a2pProfileBundleSid: z.string().trim().regex(/^BU[0-9a-f]{32}$/, "a2pProfileBundleSid must be a Trust Hub bundle SID (BU…)").optional(),
  })
  .strict();
export type RegistrationInput = z.output<typeof registrationInput>;
