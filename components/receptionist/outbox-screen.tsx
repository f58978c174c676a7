"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useEmails } from "./api";
import { ReceptionistPage, when } from "./page-shell";

const statusLabel = { sent: "Sent", outbox: "Not sent: no mail server", failed: "Failed" } as const;

/** /outbox: the e-mails Switchboard wrote (recaps, notices), rendered; the outbox when no SMTP server is set. */
export function OutboxScreen() {
  const { data, isLoading } = useEmails();
  return (
    <ReceptionistPage
      title="Outbox"
      description={
        data && !data.smtpConfigured
          ? "No mail server is configured (SMTP_URL), so e-mails wait here instead of being sent. This is what they say."
          : "The e-mails Switchboard sent for your organization."
      }
      testId="outbox"
    >
      {isLoading || !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.emails.length === 0 ? (
        <p className="text-muted-foreground">No e-mails yet. Switch on e-mail notifications in Settings → Notifications to get them.</p>
      ) : (
        <div className="flex flex-col gap-4">
          {data.emails.map((email) => (
            <Card key={email.id} data-testid="outbox-email">
              <CardHeader>
                <CardTitle className="text-base">{email.subject}</CardTitle>
                <p className="text-sm text-muted-foreground">
                  To {email.to} · {when(email.createdAt)} · <Badge variant="outline">{statusLabel[email.status]}</Badge>
                  {email.error ? ` ${email.error}` : ""}
                </p>
              </CardHeader>
              <CardContent>
                {/* The e-mail as it would be read: rendered in a sandboxed frame (no scripts). */}
                <iframe title={email.subject} sandbox="" srcDoc={email.html} className="h-72 w-full rounded border bg-white" />
              </CardContent>
            </Card>
          ))}
        </div>
      )}
    </ReceptionistPage>
  );
}
