import type { Role } from "@/lib/auth/roles";
import { isAdminRole } from "@/lib/auth/roles";

// /analytics is every member's (their own organization; admins may switch to the whole platform).
const adminPrefixes = ["/admin", "/admin-dashboard", "/mcp", "/a2a", "/crm-voice"] as const;

function matchesPrefix(pathname: string, prefix: string): boolean {
  // "/mcp*" covers /mcp and /mcp-management; "/admin" must not swallow unrelated paths.
  return pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}-`);
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
