"use client";

import { useQuery } from "@tanstack/react-query";
import { Bot, PhoneIncoming, PhoneOutgoing, User } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import type { CallDetail, HistoryItem, MessageDetail } from "@/lib/call-history/service";
import { cn } from "@/lib/utils";
import { formatDateTime, formatDuration, formatTime, sentimentVariant, statusLabel, statusVariant } from "./format";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function CallBody({ id }: { id: string }) {
  const { data, isLoading, isError } = useQuery<CallDetail>({ queryKey: ["/api/calls", id] });
  if (isLoading) return <Skeleton className="h-48 w-full" />;
  if (isError || !data) return <p role="alert" className="text-sm text-destructive">We couldn&apos;t load this call.</p>;
  return (
    <div className="flex flex-col gap-5" data-testid="call-detail">
      <div className="flex flex-wrap gap-2">
        <Badge variant={statusVariant(data.status)}>{statusLabel(data.status)}</Badge>
        {data.sentiment ? <Badge variant={sentimentVariant(data.sentiment)} data-testid="call-detail-sentiment">Sentiment: {data.sentiment}</Badge> : null}
        {data.intent ? <Badge variant="outline">Intent: {data.intent}</Badge> : null}
        {data.isSpam ? <Badge variant="destructive">Spam</Badge> : null}
      </div>
      <dl className="grid grid-cols-2 gap-4">
        <Field label="From">
          {data.callerName ? `${data.callerName} · ` : ""}
          {data.from}
        </Field>
        <Field label="To">{data.phoneNumber ? `${data.phoneNumber.friendlyName} · ${data.to}` : data.to}</Field>
        <Field label="Started">{formatDateTime(data.startedAt)}</Field>
        <Field label="Duration">{formatDuration(data.durationSeconds)}</Field>
        <Field label="Direction">{data.direction === "inbound" ? "Inbound" : "Outbound"}</Field>
        <Field label="Assistant">{data.assistant?.name ?? "—"}</Field>
      </dl>
      {data.summary ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">Summary</h3>
          <p className="text-sm text-muted-foreground" data-testid="call-detail-summary">{data.summary}</p>
        </div>
      ) : null}
      {data.recordingUrl ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">{data.status === "voicemail" ? "Voicemail" : "Recording"}</h3>
          <audio controls preload="none" src={data.recordingUrl} className="w-full" data-testid="call-detail-audio">
            <a href={data.recordingUrl}>Download the recording</a>
          </audio>
        </div>
      ) : null}
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Transcript</h3>
        {data.transcript.length === 0 ? (
          <p className="text-sm text-muted-foreground">No transcript for this call.</p>
        ) : (
          <ol className="flex max-h-80 flex-col gap-2 overflow-y-auto pr-1" data-testid="call-detail-transcript">
            {data.transcript.map((turn, index) => {
              // The calling side: a person on the phone, or another AI agent (A2A) in an agent conversation.
              const isCaller = turn.speaker === "caller" || (turn.speaker === "agent" && data.channel === "agent");
              return (
                <li key={index} className={cn("flex gap-2", isCaller ? "justify-start" : "flex-row-reverse")}>
                  <span
                    className={cn(
                      "mt-1 flex size-7 shrink-0 items-center justify-center rounded-full",
                      isCaller ? "bg-muted text-muted-foreground" : "bg-primary/15 text-primary",
                    )}
                    aria-hidden
                  >
                    {isCaller ? <User className="size-4" /> : <Bot className="size-4" />}
                  </span>
                  <div
                    className={cn(
                      "max-w-[80%] rounded-lg px-3 py-2 text-sm",
                      isCaller ? "bg-muted text-foreground" : "bg-primary/15 text-foreground",
                    )}
                    data-speaker={turn.speaker}
                  >
                    <p className="mb-0.5 text-[11px] font-medium text-muted-foreground">
                      {turn.speaker === "agent" ? "Agent" : isCaller ? "Caller" : "Assistant"} · {formatTime(turn.at)}
                    </p>
                    <p>{turn.text}</p>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </div>
  );
}

function MessageBody({ id }: { id: string }) {
  const { data, isLoading, isError } = useQuery<MessageDetail>({ queryKey: ["/api/messages", id] });
  if (isLoading) return <Skeleton className="h-32 w-full" />;
  if (isError || !data) return <p role="alert" className="text-sm text-destructive">We couldn&apos;t load this text.</p>;
  return (
    <div className="flex flex-col gap-5" data-testid="message-detail">
      <div className="flex flex-wrap gap-2">
        <Badge variant={statusVariant(data.status)}>{statusLabel(data.status)}</Badge>
        {data.intent ? <Badge variant="outline">Intent: {data.intent}</Badge> : null}
        {data.isSpam ? <Badge variant="destructive">Spam</Badge> : null}
      </div>
      <dl className="grid grid-cols-2 gap-4">
        <Field label="From">{data.from}</Field>
        <Field label="To">{data.to}</Field>
        <Field label="Sent">{formatDateTime(data.createdAt)}</Field>
        <Field label="Number">{data.phoneNumber ? `${data.phoneNumber.friendlyName} · ${data.phoneNumber.phoneNumber}` : "—"}</Field>
      </dl>
      <p className="rounded-lg bg-muted px-3 py-2 text-sm whitespace-pre-wrap">{data.body}</p>
    </div>
  );
}

export function HistoryDetailDialog({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  const Icon = item?.direction === "outbound" ? PhoneOutgoing : PhoneIncoming;
  const title = !item ? "" : item.kind === "message" ? "Text message" : item.kind === "voicemail" ? "Voicemail" : "Call";
  return (
    <Dialog open={item !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-2xl" data-testid="history-detail">
        {item ? (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <Icon className="size-5 text-primary" aria-hidden />
                {title} {item.direction === "inbound" ? "from" : "to"} {item.direction === "inbound" ? item.callerName || item.from : item.to}
              </DialogTitle>
              <DialogDescription>{formatDateTime(item.at)}</DialogDescription>
            </DialogHeader>
            {item.kind === "message" ? <MessageBody id={item.id} /> : <CallBody id={item.id} />}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
