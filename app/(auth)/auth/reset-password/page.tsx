import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/identity/auth/password-reset-forms";

export const metadata: Metadata = { title: "Choose a new password" };

/** The e-mailed link: /auth/reset-password?token=… */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return <ResetPasswordForm token={typeof token === "string" ? token : ""} />;
}
