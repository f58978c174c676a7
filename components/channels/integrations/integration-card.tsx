"use client";

import * as React from "react";
import type { LucideIcon } from "lucide-react";
import { AlertTriangle, CalendarDays, CheckCircle2, Database, FileText, ListChecks, Mail, MessageSquare, Plug, RefreshCw, ScrollText, Send, Settings2, Unplug, Users, Webhook, Zap } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { connectedNote, NOT_CONFIGURED_NOTE, type IntegrationView } from "@/lib/channels/integrations/catalogue";
import { useAuthorize, useDisconnect, useSendTest, useSyncNow } from "./api";
import { ConnectDialog } from "./connect-dialog";
import { DeliveriesDialog } from "./deliveries-dialog";
import { PickerDialog } from "./picker-dialog";

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

const pickerLabel: Record<string, string> = { slack: "Channel", "google-calendar": "Calendar", notion: "Database", airtable: "Table", asana: "Project" };

function noteFor(integration: IntegrationView): string | null {
  if (!integration.connected) return null;
  return connectedNote(integration, integration.config);
}

/** What the card says about its newest delivery when it did not go through. */
function deliveryWarning(integration: IntegrationView): string | null {
  const last = integration.lastDelivery;
  if (!last || last.status === "delivered") return null;
  if (last.status === "pending" && last.attempts === 0) return null;
  const why = last.lastError ?? "no answer";
  if (last.status === "pending") {
    const at = last.nextAttemptAt ? new Date(last.nextAttemptAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "soon";
    return `${integration.name} did not take the last delivery (${why}). Retrying at ${at}; nothing is lost.`;
  }
  return `The last delivery failed after ${last.attempts} attempt${last.attempts === 1 ? "" : "s"}: ${why}`;
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
  const [pickerOpen, setPickerOpen] = React.useState(false);
  const disconnect = useDisconnect(integration);
  const sendTest = useSendTest(integration);
  const authorize = useAuthorize(integration);
  const syncNow = useSyncNow(integration);
  const oauthConnected = integration.connected && integration.config.auth === "oauth";
  const hasEndpoint = integration.kind === "webhook" || integration.kind === "slack";
  const hasLog = hasEndpoint || integration.kind === "oauth";
  const hasPicker = oauthConnected && Object.hasOwn(pickerLabel, integration.slug);
  const note = noteFor(integration);
  const warning = integration.connected ? deliveryWarning(integration) : null;
  const unavailable = !integration.connected && !integration.available;

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
        {warning ? (
          <p className="flex items-start gap-1.5 text-xs font-medium text-warning" data-testid={`integration-${integration.slug}-warning`}>
            <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            {warning}
          </p>
        ) : null}
        {integration.needsReconnect ? (
          <p className="text-xs font-medium text-destructive" data-testid={`integration-${integration.slug}-reconnect-note`}>
            Switchboard lost access to {integration.name}
            {integration.reconnectReason ? ` (${integration.reconnectReason})` : ""}. Reconnect it so calls keep reaching it.
          </p>
        ) : null}
        {unavailable ? (
          <p className="text-xs text-muted-foreground" data-testid={`integration-${integration.slug}-unavailable`}>
            {integration.kind === "unavailable" ? integration.connectable : NOT_CONFIGURED_NOTE}
            {integration.kind !== "unavailable" && integration.missingSettings.length ? ` (server settings: ${integration.missingSettings.join(", ")}).` : integration.kind === "unavailable" ? "" : "."}
          </p>
        ) : null}
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
            {hasPicker ? (
              <Button variant="ghost" size="sm" onClick={() => setPickerOpen(true)} data-testid={`pick-${integration.slug}`}>
                <Settings2 aria-hidden />
                {pickerLabel[integration.slug]}
              </Button>
            ) : null}
            {integration.slug === "hubspot" ? (
              <Button variant="ghost" size="sm" onClick={() => syncNow.mutate()} disabled={syncNow.isPending} data-testid="sync-hubspot">
                {syncNow.isPending ? <Spinner /> : <RefreshCw aria-hidden />}
                Sync now
              </Button>
            ) : null}
            {hasLog ? (
              <Button variant="ghost" size="sm" onClick={() => setDeliveriesOpen(true)} data-testid={`deliveries-${integration.slug}`}>
                <ScrollText aria-hidden />
                Deliveries
              </Button>
            ) : null}
            {hasEndpoint ? (
              <Button variant="ghost" size="sm" onClick={() => sendTest.mutate()} disabled={sendTest.isPending} data-testid={`test-${integration.slug}`}>
                {sendTest.isPending ? <Spinner /> : <Send aria-hidden />}
                Send test event
              </Button>
            ) : null}
          </>
        ) : integration.needsReconnect && integration.available ? (
          <Button size="sm" onClick={() => authorize.mutate()} disabled={authorize.isPending} data-testid={`reconnect-${integration.slug}`}>
            {authorize.isPending ? <Spinner /> : <RefreshCw aria-hidden />}
            Reconnect
          </Button>
        ) : unavailable ? null : (
          <>
            <Button size="sm" onClick={() => setConnectOpen(true)} data-testid={`connect-${integration.slug}`}>
              <Plug aria-hidden />
              Connect
            </Button>
            {hasLog ? (
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
          {hasLog ? <DeliveriesDialog integration={integration} open={deliveriesOpen} onOpenChange={setDeliveriesOpen} /> : null}
          {hasPicker ? <PickerDialog integration={integration} open={pickerOpen} onOpenChange={setPickerOpen} /> : null}
          <ConfirmDialog
            open={confirmOpen}
            onOpenChange={setConfirmOpen}
            title={`Disconnect ${integration.name}?`}
            description={
              oauthConnected
                ? `Switchboard revokes its access to ${integration.name} and forgets it; pending deliveries are given up. The delivery log stays.`
                : hasEndpoint
                  ? "Switchboard stops sending to this endpoint and forgets its URL and signing secret; pending retries are given up. The delivery log stays."
                  : `Switchboard stops using ${integration.name} and forgets its credential.`
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
