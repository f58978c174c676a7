/**
 * Roles and the permissions derived from them. One table, read by the server (route wrappers)
 * and by the client (what to show). Documented in docs/api.md#roles-and-permissions.
 */
export const roles = ["master_admin", "admin", "business", "individual"] as const;
export type Role = (typeof roles)[number];

const memberPermissions = [
  "account.read",
  "account.write",
  "dashboard.read",
  "phone_numbers.read",
  "phone_numbers.write",
  "assistants.read",
  "assistants.write",
  "calls.read",
  "messages.read",
  "messages.write",
  "settings.write",
  "integrations.read",
  "integrations.write",
  "billing.read",
  "billing.write",
  "voice_test.run",
  "services.read",
  "services.write",
  "appointments.read",
  "appointments.write",
  "business.read",
  "business.write",
] as const;

const adminPermissions = [
  ...memberPermissions,
  "admin.read",
  "admin.users.write",
  "admin.credits.adjust",
  "mcp.manage",
  "a2a.manage",
  "crm.manage",
  "analytics.read",
] as const;

const masterPermissions = [...adminPermissions, "master.read", "master.write", "system.config"] as const;

export type Permission = (typeof masterPermissions)[number];

const permissionsByRole: Record<Role, readonly Permission[]> = {
  individual: memberPermissions,
  business: memberPermissions,
  admin: adminPermissions,
  master_admin: masterPermissions,
};

export function permissionsFor(role: Role): Permission[] {
  return [...permissionsByRole[role]];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

export function isAdminRole(role: Role): boolean {
  return role === "admin" || role === "master_admin";
}
