import type { Metadata } from "next";
import { SignupScreen } from "@/components/consoles/signup/signup-screen";

export const metadata: Metadata = { title: "Sign up" };

export default function SignupPage() {
  return <SignupScreen />;
}
