import type { Metadata } from "next";
import { AuthScreen, type AuthTab } from "@/components/identity/auth/auth-screen";

export const metadata: Metadata = { title: "Sign in" };

/** /auth?tab=signup opens the Sign Up tab; anything else opens Sign In. */
export default async function AuthPage({ searchParams }: { searchParams: Promise<{ tab?: string | string[] }> }) {
  const { tab } = await searchParams;
  const initialTab: AuthTab = tab === "signup" ? "signup" : "signin";
  return <AuthScreen initialTab={initialTab} />;
}
