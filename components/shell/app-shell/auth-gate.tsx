"use client";

import * as React from "react";
import { usePathname } from "next/navigation";
import { toast } from "sonner";
import { AccessDenied } from "@/components/platform/access-denied";
import { FullScreenLoader } from "@/components/platform/full-screen-loader";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { withReturnTo } from "@/lib/identity/auth/return-to";
import { fullPageNavigate } from "@/lib/platform/utils";
import { isAdminPath, isMasterAdminPath, roleMayView } from "./route-access";

const REDIRECT_DELAY_MS = 1000;

/** Client gate for signed-in screens: waits for auth, redirects signed-out visitors (spec §4). */
export function AuthGate({ children }: { children: React.ReactNode }) {
  const { user, isLoading, isAuthenticated } = useAuth();
  const pathname = usePathname() ?? "";
  const adminArea = isAdminPath(pathname);
  const toastShown = React.useRef(false);

  React.useEffect(() => {
    if (isLoading || isAuthenticated) return;
    if (!toastShown.current) {
      toastShown.current = true;
      if (adminArea) toast.error("Access Denied", { description: "Admin access required" });
      else toast.error("Unauthorized", { description: "You are logged out. Logging in again..." });
    }
    const timer = window.setTimeout(() => {
      // Come back to the page that was asked for once signed in (same-site paths only).
      const asked = `${window.location.pathname}${window.location.search}`;
      fullPageNavigate(withReturnTo(adminArea ? "/auth" : "/api/login", asked));
    }, REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [isLoading, isAuthenticated, adminArea]);

  if (isLoading) return <FullScreenLoader />;
  if (!user) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center px-4 py-24 text-sm text-muted-foreground">
        Redirecting to sign in...
      </div>
    );
  }
  // The page's server component checks the role too; this covers a session held only as a bearer.
  if (!roleMayView(pathname, user.role)) return <AccessDenied level={isMasterAdminPath(pathname) ? "master_admin" : "admin"} />;
  return children;
}
