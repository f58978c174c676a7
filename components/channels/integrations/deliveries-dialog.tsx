"use client";

import { useQuery } from "@tanstack/react-query";
import { RotateCw, Send } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { DeliveryView, IntegrationView } from "@/lib/channels/integrations/catalogue";
import { deliveriesKey, useSendTest } from "./api";

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "medium" });
const fmt = (iso: string | null) => (iso ? when.format(new Date(iso)) : "—");

const statusVariant = { delivered: "success", pending: "warning", failed: "destructive" } as const;

/** The delivery log of a webhook, Zapier or Slack connection, newest first. */
export function DeliveriesDialog({
  integration,
  open,
  onOpenChange,
}: {
  integration: IntegrationView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const log = useQuery<DeliveryView[]>({ queryKey: deliveriesKey(integration.slug), enabled: open, staleTime: 0 });
  const sendTest = useSendTest(integration);
  const rows = log.data ?? [];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-4xl" data-testid="deliveries-dialog">
        <DialogHeader>
          <DialogTitle>{integration.name} deliveries</DialogTitle>
          <DialogDescription>
            Every event sent to this endpoint. Failed attempts are retried after 30 s, 2 min, 10 min, 1 h and 6 h, then given up.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void log.refetch()} disabled={log.isFetching}>
            <RotateCw aria-hidden className={log.isFetching ? "animate-spin" : undefined} />
            Refresh
          </Button>
          {integration.connected ? (
            <Button size="sm" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
              {sendTest.isPending ? <Spinner /> : <Send aria-hidden />}
              Send test event
            </Button>
          ) : null}
        </div>
        {log.isLoading ? (
          <Skeleton className="h-32 w-full" />
        ) : log.isError ? (
          <p role="alert" className="text-sm text-destructive">We couldn&apos;t load the delivery log.</p>
        ) : rows.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground" data-testid="deliveries-empty">
            No deliveries yet. Send a test event to try the connection.
          </p>
        ) : (
          <div className="max-h-[60vh] overflow-y-auto">
            <Table data-testid="deliveries-table">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Event</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Attempts</TableHead>
                  <TableHead>Last answer</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead>Delivered / next try</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((d) => (
                  <TableRow key={d.id}>
                    <TableCell className="font-mono text-xs">{d.event}</TableCell>
                    <TableCell>
                      <Badge variant={statusVariant[d.status]}>{d.status}</Badge>
                    </TableCell>
                    <TableCell className="tabular-nums">{d.attempts}</TableCell>
                    <TableCell className="max-w-xs">
                      <span className="tabular-nums">{d.lastStatusCode ?? "—"}</span>
                      {d.lastError ? <p className="line-clamp-2 text-xs text-muted-foreground">{d.lastError}</p> : null}
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-xs">{fmt(d.createdAt)}</TableCell>
                    <TableCell className="whitespace-nowrap text-xs">{d.status === "pending" ? `next ${fmt(d.nextAttemptAt)}` : fmt(d.deliveredAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
