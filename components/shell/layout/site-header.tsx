"use client";

import * as React from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { ChevronDown, CreditCard, LogOut, Menu, Mic, Settings, Shield, ShieldCheck, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { clearStoredSessionId } from "@/lib/platform/api-client";
import { avatarInitial, displayFirstName, useAuth } from "@/lib/identity/auth/use-auth";
import { cn, fullPageNavigate } from "@/lib/platform/utils";
import { Logo } from "./logo";
import { accountMenuLinks, appNavLinks, deskNavLinks, isNavLinkActive, moreNavLinks, primaryNavLinks } from "./nav-links";
import { NotificationBell } from "@/components/receptionist/notifications/notification-bell";
import type { Role } from "@/lib/identity/auth/roles";

function signOut() {
  clearStoredSessionId();
  fullPageNavigate("/api/logout");
}

/**
 * Desktop: the entries beyond the primary ones (Integrations, Settings) and the front desk's pages
 * (Appointments, Tasks, Recaps, Contacts, Outbox) under one "More" menu. Radix's menu gives the
 * keyboard behaviour: Enter, Space or Arrow Down opens it (aria-expanded says so), arrows move,
 * Escape closes it and focus returns to the button. Notifications have the bell.
 */
function MoreMenu({ pathname }: { pathname: string }) {
  const desk = deskNavLinks.filter((link) => link.href !== "/notifications");
  const active = [...moreNavLinks, ...desk].find((link) => isNavLinkActive(link.href, pathname));
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          data-testid="nav-more"
          className={cn(
            "flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
            active ? "bg-accent text-foreground" : "text-muted-foreground hover:bg-accent/60 hover:text-foreground",
          )}
        >
          {/* The page open under More is named on the button, so the header still says where you are. */}
          {active ? active.label : "More"}
          {active ? <span className="sr-only"> (more pages)</span> : null}
          <ChevronDown className="size-4" aria-hidden />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="min-w-48" data-testid="nav-more-menu">
        {moreNavLinks.map((link) => (
          <DropdownMenuItem key={link.href} asChild>
            <Link href={link.href} aria-current={isNavLinkActive(link.href, pathname) ? "page" : undefined}>
              {link.label}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Front desk</DropdownMenuLabel>
        {desk.map((link) => (
          <DropdownMenuItem key={link.href} asChild>
            <Link href={link.href} aria-current={isNavLinkActive(link.href, pathname) ? "page" : undefined}>
              {link.label}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function NavLinks({
  pathname,
  onNavigate,
  vertical = false,
  links = appNavLinks,
}: {
  pathname: string;
  onNavigate?: () => void;
  vertical?: boolean;
  links?: readonly { href: string; label: string }[];
}) {
  return (
    <ul className={cn("flex gap-1", vertical ? "flex-col" : "items-center")}>
      {links.map((link) => {
        const active = isNavLinkActive(link.href, pathname);
        return (
          <li key={link.href}>
            <Link
              href={link.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
                active ? "bg-accent text-foreground" : "text-muted-foreground hover:bg-accent/60 hover:text-foreground",
              )}
            >
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The avatar opens the account menu: Billing & Credits, Voice Test, Settings, the admin areas for admins, Sign Out. */
function AccountMenu({ role, initial, firstName, email }: { role: Role | undefined; initial: string; firstName: string; email: string }) {
  const icons = { "/billing": CreditCard, "/voice-test": Mic, "/settings": Settings, "/admin": Shield, "/master-admin": ShieldCheck } as const;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 outline-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`Account menu for ${firstName}`}
          data-testid="header-user"
        >
          <span
            aria-hidden
            className="flex size-8 items-center justify-center rounded-full bg-primary/20 text-sm font-semibold text-primary ring-1 ring-primary/30"
            data-testid="header-avatar"
          >
            {initial}
          </span>
          <span className="hidden max-w-40 truncate text-sm font-medium sm:inline" data-testid="header-first-name">
            {firstName}
          </span>
          <ChevronDown className="size-4 text-muted-foreground" aria-hidden />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-56" data-testid="account-menu">
        <DropdownMenuLabel className="truncate font-normal text-muted-foreground">{email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {accountMenuLinks(role).map((link) => {
          const Icon = icons[link.href];
          return (
            <DropdownMenuItem key={link.href} asChild>
              <Link href={link.href} data-testid={`account-menu-${link.href.slice(1)}`}>
                <Icon aria-hidden className="size-4" />
                {link.label}
              </Link>
            </DropdownMenuItem>
          );
        })}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={signOut} data-testid="account-menu-sign-out">
          <LogOut aria-hidden className="size-4" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function SiteHeader() {
  const { user, isLoading, isAuthenticated } = useAuth();
  const pathname = usePathname() ?? "/";
  const [menuOpen, setMenuOpen] = React.useState(false);
  const closeMenu = React.useCallback(() => setMenuOpen(false), []);

  return (
    <header
      data-layout="header"
      className="sticky top-0 z-30 border-b border-border/80 bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/70"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Logo href={isAuthenticated ? "/dashboard" : "/"} />

        {isAuthenticated ? (
          <nav aria-label="Main" className="hidden flex-1 items-center justify-center gap-1 lg:flex">
            <NavLinks pathname={pathname} links={primaryNavLinks} />
            <MoreMenu pathname={pathname} />
          </nav>
        ) : null}

        {isLoading ? null : isAuthenticated ? (
          <div className="ml-auto flex items-center gap-1 sm:gap-3">
            <NotificationBell active={isNavLinkActive("/notifications", pathname)} />
            <AccountMenu role={user?.role} initial={avatarInitial(user)} firstName={displayFirstName(user)} email={user?.email ?? ""} />
            <Button variant="ghost" size="sm" onClick={signOut} data-testid="header-sign-out">
              <LogOut aria-hidden />
              <span className="hidden sm:inline">Sign Out</span>
              <span className="sr-only sm:hidden">Sign Out</span>
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="lg:hidden"
              aria-expanded={menuOpen}
              aria-controls="mobile-nav"
              aria-label={menuOpen ? "Close menu" : "Open menu"}
              onClick={() => setMenuOpen((open) => !open)}
              data-testid="header-menu-toggle"
            >
              {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
            </Button>
          </div>
        ) : (
          <div className="ml-auto flex items-center gap-2">
            <Button variant="ghost" size="sm" asChild>
              <a href="/api/login" data-testid="header-sign-in">
                Sign In
              </a>
            </Button>
            <Button size="sm" asChild>
              <a href="/api/login" data-testid="header-get-started">
                Get Started
              </a>
            </Button>
          </div>
        )}
      </div>

      {isAuthenticated && menuOpen ? (
        <nav id="mobile-nav" aria-label="Main" className="border-t border-border px-4 py-3 lg:hidden">
          <NavLinks pathname={pathname} onNavigate={closeMenu} vertical />
          <p className="mt-3 px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">Front desk</p>
          <ul className="mt-1 flex flex-col gap-1">
            {deskNavLinks.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  onClick={closeMenu}
                  aria-current={isNavLinkActive(link.href, pathname) ? "page" : undefined}
                  className="block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent/60 hover:text-foreground"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <p className="mt-3 px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">Account</p>
          <ul className="mt-1 flex flex-col gap-1">
            {accountMenuLinks(user?.role).map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  onClick={closeMenu}
                  className="block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent/60 hover:text-foreground"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
