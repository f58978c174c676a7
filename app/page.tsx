"use client";

import { Dashboard } from "@/components/consoles/dashboard/dashboard";
import { FullScreenLoader } from "@/components/platform/full-screen-loader";
import { LandingPage } from "@/components/consoles/marketing/landing-page";
import { useAuth } from "@/lib/identity/auth/use-auth";

/** "/" is the landing page for visitors and the dashboard for signed-in users (spec core §2). */
export default function HomePage() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <FullScreenLoader />;
  return isAuthenticated ? <Dashboard /> : <LandingPage />;
}
