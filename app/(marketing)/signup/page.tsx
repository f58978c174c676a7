import type { Metadata } from "next";
import { SignupScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Sign up" };

export default function SignupPage() {
  return <SignupScreen />;
}
