import "server-only";
import * as React from "react";
import { AccessDenied } from "@/components/platform/access-denied";
import { getCurrentUser } from "@/lib/identity/auth/current-user";
import { isAdminRole } from "@/lib/identity/auth/roles";

/**
 * Server-side role check for admin screens (spec core §6). A signed-in user without the role gets
 * the Access Denied text and none of the screen; with no session we render nothing sensitive either
 * way and let the client gate redirect to /auth.
 */
export async function AdminOnly({
  level = "admin",
  children,
}: {
  /** "master" admits master_admin only; "admin" admits admin and master_admin. */
  level?: "admin" | "master";
  children: React.ReactNode;
}) {
  const user = await getCurrentUser();
  if (!user) return children;
  const allowed = level === "master" ? user.role === "master_admin" : isAdminRole(user.role);
  return allowed ? children : <AccessDenied level={level === "master" ? "master_admin" : "admin"} />;
}
