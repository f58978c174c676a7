import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/identity/auth/password-reset-forms";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
