"use client";

import * as React from "react";
import type { LucideIcon } from "lucide-react";
import { CalendarDays, CheckCircle2, Database, FileText, ListChecks, Mail, MessageSquare, Plug, ScrollText, Send, Unplug, Users, Webhook, Zap } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { connectedNote, type IntegrationView } from "@/lib/integrations/catalogue";
import { useDisconnect, useSendTest } from "./api";
import { ConnectDialog } from "./connect-dialog";
import { DeliveriesDialog } from "./deliveries-dialog";

const icons: Record<string, LucideIcon> = {
  slack: MessageSquare,
  notion: FileText,
  hubspot: Users,
  "google-calendar": CalendarDays,
  zapier: Zap,
  airtable: Database,
  gmail: Mail,
  asana: ListChecks,
  webhooks: Webhook,
};

function noteFor(integration: IntegrationView): string | null {
  if (!integration.connected) return null;
  return connectedNote(integration, integration.config);
}

export function IntegrationCard({
  integration,
  signedIn,
  loading,
}: {
  integration: IntegrationView;
  signedIn: boolean;
  /** The organization's state is still loading: hide the buttons rather than guess. */
  loading: boolean;
}) {
  const Icon = icons[integration.slug] ?? Plug;
  const [connectOpen, setConnectOpen] = React.useState(false);
  const [deliveriesOpen, setDeliveriesOpen] = React.useState(false);
  const [confirmOpen, setConfirmOpen] = React.useState(false);
  const disconnect = useDisconnect(integration);
  const sendTest = useSendTest(integration);
  const hasEndpoint = integration.kind === "webhook" || integration.kind === "slack";
  const note = noteFor(integration);

  return (
    <Card className="flex flex-col" data-testid={`integration-${integration.slug}`} data-connected={integration.connected}>
      <CardHeader className="flex-row items-start gap-3 pb-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">{integration.name}</h3>
            {integration.connected ? (
              <Badge variant="success" data-testid={`integration-${integration.slug}-connected`}>
                <CheckCircle2 aria-hidden />
                Connected
              </Badge>
            ) : null}
          </div>
          <Badge variant="outline" className="w-fit">
            {integration.category}
          </Badge>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-2">
        <p className="text-sm text-muted-foreground">{integration.description}</p>
        {note ? <p className="text-xs font-medium text-success">{note}</p> : null}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {!signedIn ? (
          <Button variant="outline" size="sm" asChild>
            <a href="/api/login">Sign in to connect</a>
          </Button>
        ) : loading ? (
          <Spinner className="text-muted-foreground" />
        ) : integration.connected ? (
          <>
            <Button variant="outline" size="sm" onClick={() => setConfirmOpen(true)} disabled={disconnect.isPending} data-testid={`disconnect-${integration.slug}`}>
              {disconnect.isPending ? <Spinner /> : <Unplug aria-hidden />}
              Disconnect
            </Button>
            {hasEndpoint ? (
              <>
                <Button variant="ghost" size="sm" onClick={() => setDeliveriesOpen(true)} data-testid={`deliveries-${integration.slug}`}>
                  <ScrollText aria-hidden />
                  Deliveries
                </Button>
                <Button variant="ghost" size="sm" onClick={() => sendTest.mutate()} disabled={sendTest.isPending} data-testid={`test-${integration.slug}`}>
                  {sendTest.isPending ? <Spinner /> : <Send aria-hidden />}
                  Send test event
                </Button>
              </>
            ) : null}
          </>
        ) : (
          <>
            <Button size="sm" onClick={() => setConnectOpen(true)} data-testid={`connect-${integration.slug}`}>
              <Plug aria-hidden />
              Connect
            </Button>
            {hasEndpoint ? (
              <Button variant="ghost" size="sm" onClick={() => setDeliveriesOpen(true)}>
                <ScrollText aria-hidden />
                Deliveries
              </Button>
            ) : null}
          </>
        )}
      </CardFooter>
      {signedIn ? (
        <>
          <ConnectDialog integration={integration} open={connectOpen} onOpenChange={setConnectOpen} />
          {hasEndpoint ? <DeliveriesDialog integration={integration} open={deliveriesOpen} onOpenChange={setDeliveriesOpen} /> : null}
          <ConfirmDialog
            open={confirmOpen}
            onOpenChange={setConfirmOpen}
            title={`Disconnect ${integration.name}?`}
            description={
              hasEndpoint
                ? "Switchboard stops sending to this endpoint and forgets its URL and signing secret; pending retries are given up. The delivery log stays."
                : `Switchboard will record ${integration.name} as not connected.`
            }
            confirmLabel="Disconnect"
            destructive
            pending={disconnect.isPending}
            onConfirm={() => disconnect.mutate()}
          />
        </>
      ) : null}
    </Card>
  );
}
