import { z } from "zod";

/** Longest values accepted anywhere a person's account details are typed (RFC 5321 for e-mail). */
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 128;
export const USERNAME_MAX = 50;
export const PERSON_NAME_MAX = 100;

/** /auth sign-in (core spec §5). Shared by the form and POST /api/auth/login. */
export const loginInput = z.object({
  email: z.string().trim().max(EMAIL_MAX, "Please enter a valid email").email("Please enter a valid email"),
  password: z.string().min(6, "Password must be at least 6 characters").max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
});
export type LoginInput = z.infer<typeof loginInput>;

/** /auth sign-up (core spec §5). Shared by the form and POST /api/auth/register. */
export const registerInput = loginInput.extend({
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`),
  firstName: z
    .string()
    .trim()
    .min(1, "First name is required")
    .max(PERSON_NAME_MAX, `First name must be at most ${PERSON_NAME_MAX} characters`),
  lastName: z
    .string()
    .trim()
    .min(1, "Last name is required")
    .max(PERSON_NAME_MAX, `Last name must be at most ${PERSON_NAME_MAX} characters`),
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The sign-up form adds a confirmation the server does not need. */
export const registerFormInput = registerInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type RegisterFormInput = z.infer<typeof registerFormInput>;

/** "Forgot password?" on /auth: the account's e-mail. Shared by the form and POST /api/auth/forgot-password. */
export const forgotPasswordInput = z.object({
  email: loginInput.shape.email,
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

/** The e-mailed link's page: the token from the link and the new password. POST /api/auth/reset-password. */
export const resetPasswordInput = z.object({
  token: z.string().trim().min(1, "The reset link is incomplete: open the link from the e-mail again").max(200, "The reset link is not valid"),
  newPassword: loginInput.shape.password,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** The reset form adds a confirmation the server does not need. */
export const resetPasswordFormInput = z
  .object({ newPassword: loginInput.shape.password, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type ResetPasswordFormInput = z.infer<typeof resetPasswordFormInput>;
