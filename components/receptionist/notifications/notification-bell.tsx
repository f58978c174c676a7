"use client";

import Link from "next/link";
import { Bell } from "lucide-react";
import { cn } from "@/lib/platform/utils";
import { useNotifications } from "./api";

/** The header's bell: the unread count, a link to the inbox (/notifications). Shown on phones too. */
export function NotificationBell({ active }: { active: boolean }) {
  const { data } = useNotifications();
  const unread = data?.unread ?? 0;
  const label = unread > 0 ? `Notifications (${unread} unread)` : "Notifications";
  return (
    <Link
      href="/notifications"
      aria-label={label}
      aria-current={active ? "page" : undefined}
      data-testid="header-notifications"
      className={cn(
        "relative inline-flex size-9 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent/60 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring",
        active && "bg-accent text-foreground",
      )}
    >
      <Bell aria-hidden className="size-5" />
      {unread > 0 ? (
        <span
          aria-hidden
          data-testid="header-notifications-count"
          className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] leading-5 font-semibold text-primary-foreground"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
