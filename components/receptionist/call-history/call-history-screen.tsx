"use client";

import * as React from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Bot, History, MessageSquare, Mic, PhoneIncoming, PhoneOutgoing, RotateCw, SlidersHorizontal } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiRequest } from "@/lib/platform/api-client";
import type { HistoryItem, HistoryPage } from "@/lib/receptionist/call-history/service";
import { emptyFilters, FilterBar, toQuery, type HistoryFilters } from "./filter-bar";
import { costLabel, formatDateTime, formatDuration, sentimentVariant, statusLabel, statusVariant } from "./format";
import { HistoryDetailDialog } from "./history-detail-dialog";

const PAGE_SIZE = 25;

function KindIcon({ item }: { item: HistoryItem }) {
  if (item.kind === "message") return <MessageSquare className="size-4" aria-hidden />;
  if (item.kind === "voicemail") return <Mic className="size-4" aria-hidden />;
  if (item.channel === "agent") return <Bot className="size-4" aria-hidden />;
  return item.direction === "inbound" ? <PhoneIncoming className="size-4" aria-hidden /> : <PhoneOutgoing className="size-4" aria-hidden />;
}

const kindLabel = { call: "Call", message: "Text", voicemail: "Voicemail" } as const;

/** "Agent" for a conversation with another AI agent over A2A (a call row with channel agent). */
function labelOf(item: HistoryItem): string {
  return item.channel === "agent" ? "Agent" : kindLabel[item.kind];
}

function Row({ item, onOpen }: { item: HistoryItem; onOpen: () => void }) {
  const counterpart = item.direction === "inbound" ? item.from : item.to;
  return (
    <TableRow
      className="cursor-pointer"
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onOpen();
        }
      }}
      tabIndex={0}
      aria-label={`Open ${labelOf(item).toLowerCase()} ${item.direction === "inbound" ? "from" : "to"} ${counterpart}`}
      data-testid="history-row"
      data-kind={item.kind}
      data-channel={item.channel ?? "phone"}
    >
      <TableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(item.at)}</TableCell>
      <TableCell>
        <span className="inline-flex items-center gap-2">
          <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
            <KindIcon item={item} />
          </span>
          {labelOf(item)}
        </span>
      </TableCell>
      <TableCell>
        <div className="flex flex-col">
          <span className="font-medium">{item.callerName || counterpart}</span>
          <span className="text-xs text-muted-foreground">
            {item.direction === "inbound" ? "Inbound" : "Outbound"}
            {item.callerName ? ` · ${counterpart}` : ""}
          </span>
        </div>
      </TableCell>
      <TableCell className="hidden md:table-cell">{item.phoneNumber?.friendlyName ?? "—"}</TableCell>
      <TableCell className="hidden max-w-md lg:table-cell">
        <p className="line-clamp-2 text-sm text-muted-foreground">{item.kind === "message" ? item.body : item.summary || "—"}</p>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">{item.kind === "message" ? "—" : formatDuration(item.durationSeconds ?? 0)}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          <Badge variant={statusVariant(item.status)}>{statusLabel(item.status)}</Badge>
          {item.sentiment ? <Badge variant={sentimentVariant(item.sentiment)}>{item.sentiment}</Badge> : null}
          {item.isSpam ? (
            <Badge variant="destructive" title={item.spamReasons?.join("; ")}>
              Spam{item.spamScore !== null && item.spamScore !== undefined ? ` ${item.spamScore}` : ""}
            </Badge>
          ) : null}
        </div>
      </TableCell>
      <TableCell className="hidden whitespace-nowrap text-sm tabular-nums sm:table-cell" data-testid="history-cost">
        {costLabel(item.costCredits, item.creditedBack)}
      </TableCell>
    </TableRow>
  );
}

/** Under 640 px a row is a card with the essentials: a button named for what it opens. */
function MobileCard({ item, onOpen }: { item: HistoryItem; onOpen: () => void }) {
  const counterpart = item.direction === "inbound" ? item.from : item.to;
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-label={`Open ${labelOf(item).toLowerCase()} ${item.direction === "inbound" ? "from" : "to"} ${item.callerName || counterpart}, ${formatDateTime(item.at)}`}
        className="flex w-full flex-col gap-1.5 rounded-lg border border-border bg-card p-3 text-left outline-none hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring"
        data-testid="history-card"
      >
        <span className="flex items-center justify-between gap-2">
          <span className="inline-flex min-w-0 items-center gap-2 font-medium">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
              <KindIcon item={item} />
            </span>
            <span className="truncate">{item.callerName || counterpart}</span>
          </span>
          <Badge variant={statusVariant(item.status)}>{statusLabel(item.status)}</Badge>
        </span>
        <span className="text-xs text-muted-foreground">
          {labelOf(item)} · {item.direction === "inbound" ? "Inbound" : "Outbound"} · {formatDateTime(item.at)}
          {item.kind === "message" ? "" : ` · ${formatDuration(item.durationSeconds ?? 0)}`}
        </span>
        {(item.kind === "message" ? item.body : item.summary) ? (
          <span className="line-clamp-2 text-sm text-muted-foreground">{item.kind === "message" ? item.body : item.summary}</span>
        ) : null}
      </button>
    </li>
  );
}

/** Calls, texts and voicemails of the organization, newest first, with filters and a detail view. */
export function CallHistoryScreen() {
  const [filters, setFilters] = React.useState<HistoryFilters>(emptyFilters);
  const [selected, setSelected] = React.useState<HistoryItem | null>(null);
  const [filtersOpen, setFiltersOpen] = React.useState(false);
  const qs = toQuery(filters).toString();

  const query = useInfiniteQuery({
    queryKey: ["/api/call-history", qs],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams(qs);
      params.set("limit", String(PAGE_SIZE));
      if (pageParam) params.set("cursor", pageParam);
      const res = await apiRequest("GET", `/api/call-history?${params}`);
      return (await res.json()) as HistoryPage;
    },
    getNextPageParam: (last) => last.nextCursor,
  });

  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = qs !== "";

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8" data-testid="call-history">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Call History</h1>
        <p className="text-muted-foreground">Every call, text and voicemail your numbers handled, newest first. Open one for its transcript and summary.</p>
      </div>

      {/* On a phone the seven filters fold into one "Filters" sheet. */}
      <Button
        variant="outline"
        className="self-start sm:hidden"
        aria-expanded={filtersOpen}
        aria-controls="history-filters"
        onClick={() => setFiltersOpen((open) => !open)}
        data-testid="history-filters-toggle"
      >
        <SlidersHorizontal aria-hidden />
        Filters{filtered ? " (on)" : ""}
      </Button>
      <div id="history-filters" className={filtersOpen ? "block" : "hidden sm:block"}>
        <FilterBar value={filters} onChange={setFilters} />
      </div>

      {query.isError ? (
        <div role="alert" className="flex flex-col gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <span>We couldn&apos;t load your history.</span>
          <Button size="sm" variant="outline" onClick={() => void query.refetch()}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        </div>
      ) : null}

      {query.isLoading ? (
        <Card className="flex flex-col gap-2 p-4" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </Card>
      ) : items.length === 0 && !query.isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center" data-testid="history-empty">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <History className="size-6" aria-hidden />
          </span>
          <h2 className="text-lg font-semibold">{filtered ? "Nothing matches these filters" : "No calls or texts yet"}</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            {filtered
              ? "Try a wider date range or clear a filter."
              : "When your numbers take calls, texts and voicemails, they appear here with transcripts and summaries."}
          </p>
          {filtered ? (
            <Button variant="outline" onClick={() => setFilters(emptyFilters)}>
              Clear filters
            </Button>
          ) : null}
        </Card>
      ) : items.length > 0 ? (
        <>
        <ul className="flex flex-col gap-2 sm:hidden" data-testid="history-cards">
          {items.map((item) => (
            <MobileCard key={`${item.kind}-${item.id}`} item={item} onOpen={() => setSelected(item)} />
          ))}
        </ul>
        <Card className="hidden overflow-hidden sm:block">
          <Table>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>When</TableHead>
                <TableHead>Type</TableHead>
                <TableHead>Party</TableHead>
                <TableHead className="hidden md:table-cell">Number</TableHead>
                <TableHead className="hidden lg:table-cell">Summary</TableHead>
                <TableHead>Duration</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden sm:table-cell">Cost</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <Row key={`${item.kind}-${item.id}`} item={item} onOpen={() => setSelected(item)} />
              ))}
            </TableBody>
          </Table>
        </Card>
        </>
      ) : null}

      {query.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage} data-testid="history-load-more">
            {query.isFetchingNextPage ? <Spinner /> : null}
            {query.isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        </div>
      ) : null}

      <HistoryDetailDialog item={selected} onClose={() => setSelected(null)} />
    </div>
  );
}
