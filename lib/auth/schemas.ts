import { z } from "zod";

/** /auth sign-in (core spec §5). Shared by the form and POST /api/auth/login. */
export const loginInput = z.object({
  email: z.string().trim().email("Please enter a valid email"),
  password: z.string().min(6, "Password must be at least 6 characters"),
});
export type LoginInput = z.infer<typeof loginInput>;

/** /auth sign-up (core spec §5). Shared by the form and POST /api/auth/register. */
export const registerInput = loginInput.extend({
  username: z.string().trim().min(3, "Username must be at least 3 characters"),
  firstName: z.string().trim().min(1, "First name is required"),
  lastName: z.string().trim().min(1, "Last name is required"),
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The sign-up form adds a confirmation the server does not need. */
export const registerFormInput = registerInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type RegisterFormInput = z.infer<typeof registerFormInput>;
