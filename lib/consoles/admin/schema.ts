import { z } from "zod";
import { blankToUndefined, pageQuery } from "@/lib/platform/http/pagination";
import { registerInput } from "@/lib/identity/auth/schemas";
import { roles } from "@/lib/identity/auth/roles";

/** Admin dashboard (core §2, advanced §3 "User (admin)"): one schema per operation, shared by forms and routes. */

export const userStatuses = ["active", "suspended", "cancelled"] as const;
export type UserStatus = (typeof userStatuses)[number];

const roleField = z.enum(roles, "Role must be master_admin, admin, business or individual");
const statusField = z.enum(userStatuses, "Status must be active, suspended or cancelled");

/** GET /api/admin/users: `search` (e-mail, username or name), `role`, `cursor` from `nextCursor`, `limit` 1–100. */
export const adminUsersQuery = z.object({
  search: z.preprocess(blankToUndefined, z.string().trim().max(200, "Search must be at most 200 characters").optional()),
  role: z.preprocess((v) => (v === "all" ? undefined : blankToUndefined(v)), roleField.optional()),
  ...pageQuery(25, 100).shape,
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

/** PUT /api/admin/users/{id}: any of names, e-mail, role, status. */
export const updateUserInput = z.object({
  firstName: z.string().trim().min(1, "First name is required").max(100, "First name must be at most 100 characters").optional(),
  lastName: z.string().trim().min(1, "Last name is required").max(100, "Last name must be at most 100 characters").optional(),
  email: z.string().trim().toLowerCase().max(254, "Please enter a valid email").email("Please enter a valid email").optional(),
  role: roleField.optional(),
  status: statusField.optional(),
  /** The organization's plan, set by an admin (no payment is taken). */
  subscriptionTier: z.enum(["free", "pro", "enterprise"], "Subscription tier must be free, pro or enterprise").optional(),
  /** The organization's new balance: the difference goes through the ledger as an adjustment with `creditReason`. */
  credits: z.coerce
    .number("Credits must be a whole number")
    .int("Credits must be a whole number")
    .min(0, "Credits cannot be below zero")
    .max(100_000_000, "Credits must be at most 100,000,000")
    .optional(),
  /** Required (3+ characters) when `credits` differs from the balance; checked by the service, which knows the balance. */
  creditReason: z.string().trim().max(500, "Reason must be at most 500 characters").optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInput>;
export type UpdateUserValues = z.input<typeof updateUserInput>;

/** POST /api/admin/adjust-credits: a non-zero whole number (positive adds, negative removes) and why. */
export const adjustCreditsInput = z.object({
  userId: z.string().trim().min(1, "Choose a user").max(200, "Choose a user"),
  credits: z.coerce
    .number("Credits must be a whole number")
    .int("Credits must be a whole number")
    .refine((n) => n !== 0, "Credits must not be zero")
    .refine((n) => Math.abs(n) <= 10_000_000, "Credits must be at most 10,000,000 either way"),
  reason: z.string().trim().min(3, "Reason must be at least 3 characters").max(500, "Reason must be at most 500 characters"),
});
export type AdjustCreditsInput = z.infer<typeof adjustCreditsInput>;
export type AdjustCreditsValues = z.input<typeof adjustCreditsInput>;

/** POST /api/admin/users: a new user in an existing organization (not signed in). */
export const createUserInput = registerInput.extend({
  role: roleField.default("individual"),
  organizationId: z.string().trim().min(1, "Choose an organization").max(200, "Choose an organization"),
});
export type CreateUserInput = z.infer<typeof createUserInput>;
export type CreateUserValues = z.input<typeof createUserInput>;
