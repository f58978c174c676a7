/** Signed-in navigation (spec core §2), in display order. */
export const appNavLinks = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/phone-numbers", label: "Phone Numbers" },
  { href: "/voice-assistants", label: "Voice Assistants" },
  { href: "/call-history", label: "Call History" },
  { href: "/integrations", label: "Integrations" },
  { href: "/settings", label: "Settings" },
] as const;

/** "/" shows the dashboard to signed-in users, so it highlights the Dashboard link too. */
export function isNavLinkActive(href: string, pathname: string): boolean {
  if (href === "/dashboard" && pathname === "/") return true;
  return pathname === href || pathname.startsWith(`${href}/`);
}
