import type { Role } from "@/lib/identity/auth/roles";
import { isAdminRole } from "@/lib/identity/auth/roles";

// /analytics is every member's (their own organization; admins may switch to the whole platform).
const adminPrefixes = ["/admin", "/admin-dashboard", "/mcp", "/a2a", "/crm-voice"] as const;

function matchesPrefix(pathname: string, prefix: string): boolean {
  // "/mcp*" covers /mcp and /mcp-management; "/admin" must not swallow unrelated paths.
  return pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}-`);
}

/**
 * The signed-in pages (app/(app)/*; the old alias names are next.config redirects, which run before the proxy): the proxy sends a visitor without a session cookie to /auth
 * before any of them renders. tests/integration/signed-in-paths.test.ts keeps the list in step with
 * the folders.
 */
export const SIGNED_IN_PATHS = [
  "/a2a",
  "/admin",
  "/analytics",
  "/appointments",
  "/billing",
  "/call-history",
  "/contacts",
  "/crm-voice",
  "/dashboard",
  "/master-admin",
  "/mcp",
  "/notifications",
  "/outbox",
  "/phone-numbers",
  "/recaps",
  "/settings",
  "/tasks",
  "/voice-assistants",
  "/voice-test",
] as const;

export function isSignedInPath(pathname: string): boolean {
  return SIGNED_IN_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

export function isMasterAdminPath(pathname: string): boolean {
  return pathname === "/master-admin" || pathname.startsWith("/master-admin/");
}

/** Admin areas: a signed-out visitor is sent to /auth instead of /api/login (spec §4). */
export function isAdminPath(pathname: string): boolean {
  return isMasterAdminPath(pathname) || adminPrefixes.some((prefix) => matchesPrefix(pathname, prefix));
}

/** Whether a role may see the screen at this path; the server checks again in the page. */
export function roleMayView(pathname: string, role: Role): boolean {
  if (isMasterAdminPath(pathname)) return role === "master_admin";
  if (isAdminPath(pathname)) return isAdminRole(role);
  return true;
}
