import { AuthGate } from "@/components/shell/app-shell/auth-gate";

export default function SignedInLayout({ children }: { children: React.ReactNode }) {
  return <AuthGate>{children}</AuthGate>;
}
