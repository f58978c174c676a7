"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bell, CheckCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useMarkNotificationsRead, useNotifications, type NotificationView } from "./api";

const kindLabels: Record<string, string> = {
  "call.missed": "Missed call",
  "call.voicemail": "Voicemail",
  "call.message": "Message",
  "text.message": "Text",
  "task.urgent": "Urgent",
  "call.handled": "Call",
  recap: "Daily recap",
};

function when(iso: string) {
  return new Date(iso).toLocaleString("en-US", { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

/** /notifications: the inbox behind the header's bell — newest first, unread marked, one click opens the call or task. */
export function NotificationsScreen() {
  const router = useRouter();
  const { data, isLoading, isError, refetch } = useNotifications();
  const markRead = useMarkNotificationsRead();

  const open = (n: NotificationView) => {
    if (!n.read) markRead.mutate([n.id]);
    if (n.link) router.push(n.link);
  };

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8" data-testid="notifications">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Notifications</h1>
          <p className="text-muted-foreground">
            Messages, voicemails, missed calls and urgent tasks, as they happen. Choose what you hear about, and whether it is e-mailed too, in{" "}
            <Link href="/settings?tab=notifications" className="text-primary underline underline-offset-4">
              Settings → Notifications
            </Link>
            .
          </p>
        </div>
        <Button variant="outline" size="sm" disabled={!data?.unread || markRead.isPending} onClick={() => markRead.mutate(undefined)} data-testid="notifications-mark-all">
          <CheckCheck aria-hidden />
          Mark all read
        </Button>
      </div>
      {isLoading ? (
        <Skeleton className="h-40 w-full" />
      ) : isError || !data ? (
        <div role="alert" className="flex items-center justify-between gap-3 text-sm">
          <span>We couldn&apos;t load your notifications.</span>
          <Button size="sm" variant="outline" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : data.notifications.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-10 text-center text-muted-foreground">
            <Bell aria-hidden className="size-8" />
            <p>Nothing yet. When a caller leaves a message or a voicemail, or a call is missed, it shows here.</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={`${data.unread} unread`}>
          {data.notifications.map((n) => (
            <li key={n.id}>
              <button
                type="button"
                onClick={() => open(n)}
                data-testid="notification"
                data-read={n.read ? "true" : "false"}
                className="flex w-full flex-col gap-1 rounded-lg border border-border bg-card p-4 text-left outline-none hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring data-[read=false]:border-primary/50"
              >
                <span className="flex flex-wrap items-center gap-2">
                  {!n.read ? <span className="size-2 rounded-full bg-primary" aria-label="Unread" role="img" /> : null}
                  <Badge variant="outline">{kindLabels[n.kind] ?? "Notice"}</Badge>
                  <span className="font-medium" data-testid="notification-title">
                    {n.title}
                  </span>
                </span>
                {n.body ? <span className="text-sm break-words text-muted-foreground">{n.body}</span> : null}
                <span className="text-xs text-muted-foreground">{when(n.createdAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
