"use client";

import { Download, RotateCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCreditsChange, formatDate, formatMoney } from "./format";
import { openInvoice, useTransactions, type BillingTransaction } from "./use-billing";

function statusBadge(status: string) {
  if (status === "paid" || status === "completed") return <Badge variant="success">{status === "paid" ? "Paid" : "Completed"}</Badge>;
  if (status === "refunded") return <Badge variant="secondary">Refunded</Badge>;
  if (status === "failed") return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant="outline">{status}</Badge>;
}

function Amount({ item }: { item: BillingTransaction }) {
  return (
    <div className="flex flex-col items-end">
      <span className={item.amount > 0 ? "text-success" : item.amount < 0 ? "text-muted-foreground" : undefined}>
        {formatCreditsChange(item.amount)}
      </span>
      {item.amountCents !== null ? <span className="text-xs text-muted-foreground">{formatMoney(item.amountCents, item.currency ?? "usd")}</span> : null}
    </div>
  );
}

/** Billing History tab: payments and ledger entries, newest first, paged. */
export function HistoryTab() {
  const history = useTransactions();
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];

  if (history.isLoading) {
    return (
      <Card className="flex flex-col gap-3 p-6" role="status" aria-busy="true" aria-label="Loading billing history">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </Card>
    );
  }
  if (history.isError) {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm">
        <span>We couldn&apos;t load your billing history.</span>
        <Button size="sm" variant="outline" onClick={() => void history.refetch()}>
          <RotateCw aria-hidden />
          Try again
        </Button>
      </div>
    );
  }
  if (items.length === 0) {
    return <Card className="p-10 text-center text-sm text-muted-foreground">No transactions yet.</Card>;
  }
  return (
    <div className="flex flex-col gap-4">
      {/* Under 640 px each transaction is a card with the same facts: no sideways scrolling. */}
      <ul className="flex flex-col gap-2 sm:hidden" data-testid="billing-history-cards">
        {items.map((item) => (
          <li key={item.id} className="flex flex-col gap-1 rounded-lg border border-border bg-card p-3 text-sm" data-testid="billing-history-card">
            <div className="flex items-start justify-between gap-2">
              <span className="font-medium">{item.type}</span>
              <Amount item={item} />
            </div>
            <p className="text-muted-foreground">{item.description}</p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-xs text-muted-foreground">{formatDate(item.date)}</span>
              {statusBadge(item.status)}
            </div>
            {item.invoiceAvailable && item.paymentId ? (
              <Button size="sm" variant="ghost" className="self-start" onClick={() => void openInvoice(item.paymentId!)}>
                <Download aria-hidden />
                Download Invoice
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <Card className="hidden overflow-x-auto sm:block">
        <Table data-testid="billing-history">
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Description</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Invoice</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.id} data-testid="billing-history-row">
                <TableCell className="whitespace-nowrap">{formatDate(item.date)}</TableCell>
                <TableCell className="whitespace-nowrap">{item.type}</TableCell>
                <TableCell className="min-w-48">{item.description}</TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  <Amount item={item} />
                </TableCell>
                <TableCell>{statusBadge(item.status)}</TableCell>
                <TableCell className="text-right">
                  {item.invoiceAvailable && item.paymentId ? (
                    <Button size="sm" variant="ghost" onClick={() => void openInvoice(item.paymentId!)}>
                      <Download aria-hidden />
                      Download Invoice
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {history.hasNextPage ? (
        <Button variant="outline" className="self-center" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
          {history.isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}
