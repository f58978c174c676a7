/** Signed-in navigation (spec core §2), in display order. */
export const appNavLinks = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/phone-numbers", label: "Phone Numbers" },
  { href: "/voice-assistants", label: "Voice Assistants" },
  { href: "/call-history", label: "Call History" },
  { href: "/integrations", label: "Integrations" },
  { href: "/settings", label: "Settings" },
] as const;

/**
 * On a desktop header the first entries stay in view and the rest wait under "More" (issue 30: at
 * 1280 px ten entries wrapped onto two lines). The phone menu lists every entry.
 */
export const PRIMARY_NAV_COUNT = 4;
export const primaryNavLinks = appNavLinks.slice(0, PRIMARY_NAV_COUNT);
export const moreNavLinks = appNavLinks.slice(PRIMARY_NAV_COUNT);

/** The front desk's own pages (issue 30): in the navigation, on phones too, not only behind dashboard cards. */
export const deskNavLinks = [
  { href: "/notifications", label: "Notifications" },
  { href: "/appointments", label: "Appointments" },
  { href: "/tasks", label: "Tasks" },
  { href: "/recaps", label: "Recaps" },
  { href: "/contacts", label: "Contacts" },
  { href: "/outbox", label: "Outbox" },
] as const;

/** The avatar's account menu (with Sign Out after these): reachable from every signed-in page. */
export function accountMenuLinks(role: string | undefined) {
  const links: { href: "/billing" | "/voice-test" | "/settings" | "/admin" | "/master-admin"; label: string }[] = [
    { href: "/billing", label: "Billing & Credits" },
    { href: "/voice-test", label: "Voice Test" },
    { href: "/settings", label: "Settings" },
  ];
  if (role === "admin" || role === "master_admin") links.push({ href: "/admin", label: "Admin" });
  if (role === "master_admin") links.push({ href: "/master-admin", label: "Master Admin" });
  return links;
}

/** "/" shows the dashboard to signed-in users, so it highlights the Dashboard link too. */
export function isNavLinkActive(href: string, pathname: string): boolean {
  if (href === "/dashboard" && pathname === "/") return true;
  return pathname === href || pathname.startsWith(`${href}/`);
}
