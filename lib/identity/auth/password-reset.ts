import "server-only";
import type { Db } from "@/db/client";
import { badRequest } from "@/lib/platform/http/errors";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { getAuth } from "./auth";
import type { ForgotPasswordInput, ResetPasswordInput } from "./schemas";
import { isAuthApiError } from "./service";

/** Said whether or not the address has an account, so the form never tells who is a customer. */
export const RESET_REQUESTED_MESSAGE = "If an account uses this e-mail, we have sent it a link to choose a new password. The link works once, for 30 minutes.";
export const RESET_LINK_INVALID_MESSAGE = "This reset link has expired or was already used. Ask for a new one.";

const HOUR_MS = 60 * 60 * 1000;

/**
 * "Forgot password?": Better Auth's requestPasswordReset makes a single-use token (30 minutes) and calls
 * sendResetPassword (lib/identity/auth/auth.ts), which e-mails the link — or keeps it in the Outbox without SMTP.
 * Limited per client address and per e-mail so the form cannot be used to flood an inbox.
 */
export async function requestPasswordReset(db: Db, input: ForgotPasswordInput, ip: string | null) {
  const limited = "Too many reset requests. Please try again later.";
  if (ip) await hitRateLimit(db, `password-reset:ip:${ip}`, 20, HOUR_MS, limited);
  await hitRateLimit(db, `password-reset:email:${input.email.toLowerCase()}`, 5, HOUR_MS, limited);
  await getAuth(db).api.requestPasswordReset({ body: { email: input.email } });
  return { message: RESET_REQUESTED_MESSAGE };
}

/** Sets the new password from the e-mailed token; the token then stops working, and every session is signed out. */
export async function resetPassword(db: Db, input: ResetPasswordInput) {
  try {
    await getAuth(db).api.resetPassword({ body: { token: input.token, newPassword: input.newPassword } });
  } catch (error) {
    if (isAuthApiError(error)) throw badRequest(RESET_LINK_INVALID_MESSAGE, { token: RESET_LINK_INVALID_MESSAGE });
    throw error;
  }
  return { message: "Your password has been changed. Sign in with the new one." };
}
