import { z } from "zod";
import { planIds } from "@/lib/workspace/billing/plans";
import { website } from "@/lib/knowledge/business-profile/schema";

export const accountTypes = ["individual", "business"] as const;
export type AccountType = (typeof accountTypes)[number];

/**
 * /signup (advanced spec §5): the Account Information form and POST /api/auth/signup share this
 * schema and its messages. They differ from /auth's: names ≥ 2, password ≥ 8, terms required.
 */
const fields = z.object({
  firstName: z.string().trim().min(2, "First name is required").max(100, "First name is too long"),
  lastName: z.string().trim().min(2, "Last name is required").max(100, "Last name is too long"),
  email: z.string().trim().email("Valid email is required").max(254, "Valid email is required"),
  username: z.string().trim().min(3, "Username must be at least 3 characters").max(50, "Username must be at most 50 characters"),
  password: z.string().min(8, "Password must be at least 8 characters").max(128, "Password must be at most 128 characters"),
  confirmPassword: z.string({ error: "Passwords don't match" }),
  subscriptionTier: z.enum(planIds, { error: "Choose a plan: free, pro or enterprise" }),
  role: z.enum(accountTypes, { error: "Choose an account type: individual or business" }),
  organizationName: z.string().trim().max(100, "Organization name is too long").optional(),
  /** Optional: the business's website, offered for import into its business profile after sign-up. */
  website: z
    .string()
    .trim()
    .refine((v) => v === "" || website.safeParse(v).success, "Enter your website's address, e.g. https://example.com")
    .optional(),
  agreeToTerms: z
    .boolean({ error: "You must agree to the terms" })
    .refine((v) => v, { message: "You must agree to the terms" }),
});

const passwords = fields.pick({ password: true, confirmPassword: true });

export const signupInput = fields.refine((v) => v.password === v.confirmPassword, {
  message: "Passwords don't match",
  path: ["confirmPassword"],
  // Compare as soon as both passwords parse, even while other fields still have errors.
  when: (payload) => passwords.safeParse(payload.value).success,
});

export type SignupInput = z.infer<typeof signupInput>;
