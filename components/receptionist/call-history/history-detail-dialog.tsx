"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bot, PhoneIncoming, PhoneOutgoing, Send, User } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import type { CallDetail, HistoryItem, MessageDetail } from "@/lib/receptionist/call-history/service";
import { replyToThreadInput } from "@/lib/phone/telephony/schema";
import { cn } from "@/lib/platform/utils";
import { actionLabel, costLabel, failureLabel, formatDateTime, formatDuration, formatTime, outcomeLabel, sentimentVariant, statusLabel, statusVariant } from "./format";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** The spam score and its reasons; "Not spam" restores the call and allow-lists the caller. */
function SpamPanel({ call }: { call: CallDetail }) {
  const client = useQueryClient();
  const restore = useMutation({
    mutationFn: async () => (await apiRequest("POST", `/api/calls/${call.id}/not-spam`)).json(),
    onSuccess: () => {
      toast.success("Marked not spam", { description: `${call.from} is on your allow list now.` });
      void client.invalidateQueries({ queryKey: ["/api/calls", call.id] });
      void client.invalidateQueries({ queryKey: ["/api/call-history"] });
    },
    onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Could not mark the call as not spam" }),
  });
  if (call.spamScore === null && call.spamReasons.length === 0) return null;
  return (
    <div className={cn("flex flex-col gap-2 rounded-lg border p-3", call.isSpam ? "border-destructive/40 bg-destructive/5" : "border-border")} data-testid="call-detail-spam">
      <div className="flex items-center justify-between gap-3">
        <h3 className="text-sm font-semibold">
          Spam score {call.spamScore ?? 0}/100{call.isSpam ? " — spam" : ""}
        </h3>
        {call.isSpam ? (
          <Button size="sm" variant="outline" onClick={() => restore.mutate()} disabled={restore.isPending} data-testid="call-detail-not-spam">
            {restore.isPending ? <Spinner /> : null}
            Not spam
          </Button>
        ) : null}
      </div>
      {call.spamReasons.length ? (
        <ul className="list-disc pl-5 text-sm text-muted-foreground" data-testid="call-detail-spam-reasons">
          {call.spamReasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No spam signals.</p>
      )}
    </div>
  );
}

function CallBody({ id }: { id: string }) {
  const { data, isLoading, isError } = useQuery<CallDetail>({
    queryKey: ["/api/calls", id],
    // While the post-call job writes the summary (or stores the recording), look again every few seconds.
    refetchInterval: (query) => {
      const d = query.state.data;
      return d && (!d.endedAt || !d.analyzedAt || d.voicemail?.transcriptionStatus === "pending" || d.callRecording?.status === "pending") ? 3000 : false;
    },
  });
  if (isLoading) return <Skeleton className="h-48 w-full" />;
  if (isError || !data) return <p role="alert" className="text-sm text-destructive">We couldn&apos;t load this call.</p>;
  return (
    <div className="flex flex-col gap-5" data-testid="call-detail">
      <div className="flex flex-wrap gap-2">
        <Badge variant={statusVariant(data.status)}>{statusLabel(data.status)}</Badge>
        {data.outcome ? (
          <Badge variant="outline" data-testid="call-detail-outcome">
            {outcomeLabel(data.outcome)}
          </Badge>
        ) : null}
        {data.failureClass ? <Badge variant="destructive">{failureLabel(data.failureClass)}</Badge> : null}
        {data.sentiment ? (
          <Badge variant={sentimentVariant(data.sentiment)} data-testid="call-detail-sentiment">
            Sentiment: {data.sentiment}
            {data.sentimentScore ? ` (${data.sentimentScore}/5)` : ""}
          </Badge>
        ) : null}
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
        <Field label="Cost">
          <span data-testid="call-detail-cost">{costLabel(data.costCredits, data.creditedBack)}</span>
        </Field>
        <Field label="Routed because">
          <span data-testid="call-detail-routed">{data.routedBecause ?? "—"}</span>
        </Field>
      </dl>
      <SpamPanel call={data} />
      {data.summary ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">Summary</h3>
          <p className="text-sm text-muted-foreground" data-testid="call-detail-summary">{data.summary}</p>
        </div>
      ) : data.endedAt && !data.analyzedAt ? (
        <p className="text-sm text-muted-foreground" data-testid="call-detail-summary-pending">
          The summary is being written…
        </p>
      ) : null}
      {data.actionItems.length ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">Action items</h3>
          <ul className="list-disc pl-5 text-sm text-muted-foreground" data-testid="call-detail-action-items">
            {data.actionItems.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {data.actions.length ? (
        <div className="flex flex-wrap gap-1.5" data-testid="call-detail-actions">
          {data.actions.map((a, i) => (
            <Badge key={i} variant="secondary">
              {actionLabel(a.type)}
            </Badge>
          ))}
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
      {data.callRecording?.url ? (
        <div className="flex flex-col gap-1" data-testid="call-detail-call-recording">
          <h3 className="text-sm font-semibold">Call recording</h3>
          <audio controls preload="none" src={data.callRecording.url} className="w-full" />
          <a className="text-sm underline" href={data.callRecording.downloadUrl ?? data.callRecording.url} download>
            Download the recording
          </a>
        </div>
      ) : null}
      {data.consent ? (
        <p className="text-xs text-muted-foreground" data-testid="call-detail-consent">
          {data.consent.noticeText ? `Notice played: “${data.consent.noticeText}”` : "No notice played (none required)."}{" "}
          {data.consent.holds ? "Consent holds: the call is kept." : "No consent: nothing said on the call is kept."}
        </p>
      ) : null}
      {data.voicemail ? (
        <div className="flex flex-col gap-1" data-testid="call-detail-voicemail">
          <h3 className="text-sm font-semibold">Voicemail transcript</h3>
          {data.voicemail.transcript ? (
            <p className="rounded-lg bg-muted px-3 py-2 text-sm">{data.voicemail.transcript}</p>
          ) : data.voicemail.transcriptionStatus === "pending" ? (
            <p className="text-sm text-muted-foreground">Transcribing…</p>
          ) : null}
          {data.voicemail.note ? <p className="text-xs text-muted-foreground">{data.voicemail.note}</p> : null}
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
                      {turn.speaker === "agent" ? "Agent" : isCaller ? (turn.kind === "message" ? "Caller · message for the team" : "Caller") : "Assistant"} ·{" "}
                      {formatTime(turn.at)}
                      {turn.latencyMs !== undefined ? ` · replied in ${(turn.latencyMs / 1000).toFixed(2)} s` : ""}
                    </p>
                    <p>{turn.interrupted && turn.heard !== undefined ? turn.heard : turn.text}</p>
                    {turn.interrupted ? (
                      <p className="mt-1 text-[11px] text-muted-foreground">Interrupted by the caller{turn.heard !== undefined ? " — the rest was not heard" : ""}.</p>
                    ) : null}
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

function ReplyBox({ messageId, disabledReason }: { messageId: string; disabledReason: string | null }) {
  const queryClient = useQueryClient();
  const [body, setBody] = React.useState("");
  const [error, setError] = React.useState<string | undefined>();
  const send = useMutation({
    mutationFn: async (text: string) => (await apiRequest("POST", `/api/messages/${messageId}/reply`, { body: text })).json(),
    onSuccess: async () => {
      setBody("");
      toast.success("Reply sent");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ["/api/messages", messageId] }),
        queryClient.invalidateQueries({ queryKey: ["/api/call-history"] }),
      ]);
    },
    onError: (e) => toast.error("Error", { description: serverMessage(e) ?? "Failed to send the reply" }),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = replyToThreadInput.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    send.mutate(parsed.data.body);
  };
  if (disabledReason) return <p className="text-sm text-muted-foreground" data-testid="thread-reply-disabled">{disabledReason}</p>;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" data-testid="thread-reply">
      <label htmlFor="thread-reply-body" className="text-sm font-semibold">
        Reply by text
      </label>
      <Textarea
        id="thread-reply-body"
        value={body}
        onChange={(e) => setBody(e.target.value)}
        placeholder="Write your reply…"
        maxLength={1600}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "thread-reply-error" : undefined}
      />
      <FieldError id="thread-reply-error" message={error} />
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={send.isPending || body.trim() === ""}>
          {send.isPending ? <Spinner /> : <Send aria-hidden />}
          {send.isPending ? "Sending..." : "Send reply"}
        </Button>
      </div>
    </form>
  );
}

function MessageBody({ id }: { id: string }) {
  const { data, isLoading, isError } = useQuery<MessageDetail>({ queryKey: ["/api/messages", id] });
  if (isLoading) return <Skeleton className="h-32 w-full" />;
  if (isError || !data) return <p role="alert" className="text-sm text-destructive">We couldn&apos;t load this text.</p>;
  const thread = data.thread;
  return (
    <div className="flex flex-col gap-5" data-testid="message-detail">
      <div className="flex flex-wrap gap-2">
        <Badge variant={statusVariant(data.status)}>{statusLabel(data.status)}</Badge>
        {data.intent && !data.intent.startsWith("keyword:") ? <Badge variant="outline">Intent: {data.intent}</Badge> : null}
        {data.isSpam ? <Badge variant="destructive">Spam</Badge> : null}
        {thread?.optedOut ? <Badge variant="warning">Opted out (STOP)</Badge> : null}
      </div>
      <dl className="grid grid-cols-2 gap-4">
        <Field label="From">{data.from}</Field>
        <Field label="To">{data.to}</Field>
        <Field label="Sent">{formatDateTime(data.createdAt)}</Field>
        <Field label="Number">{data.phoneNumber ? `${data.phoneNumber.friendlyName} · ${data.phoneNumber.phoneNumber}` : "—"}</Field>
      </dl>
      {thread ? (
        <ol className="flex max-h-80 flex-col gap-2 overflow-y-auto pr-1" data-testid="thread-messages">
          {thread.messages.map((m) => {
            const fromContact = m.direction === "inbound";
            return (
              <li key={m.id} className={cn("flex", fromContact ? "justify-start" : "justify-end")}>
                <div
                  className={cn(
                    "max-w-[80%] rounded-lg px-3 py-2 text-sm whitespace-pre-wrap",
                    fromContact ? "bg-muted" : "bg-primary/15",
                    m.id === data.id && "ring-1 ring-primary/50",
                  )}
                  data-direction={m.direction}
                >
                  <p className="mb-0.5 text-[11px] font-medium text-muted-foreground">
                    {fromContact ? thread.contact : m.sentBy === "owner" ? "You" : m.sentBy === "system" ? "Carrier rules" : "Assistant"} ·{" "}
                    {formatTime(m.createdAt)}
                  </p>
                  <p>{m.body}</p>
                </div>
              </li>
            );
          })}
          {thread.held?.map((h) => (
            <li key={h.id} className="flex justify-end" data-testid="thread-held">
              <div className="max-w-[80%] rounded-lg border border-dashed px-3 py-2 text-sm whitespace-pre-wrap">
                <p className="mb-0.5 text-[11px] font-medium text-muted-foreground">
                  <Badge variant="warning">Waiting</Badge> · {formatTime(h.createdAt)}
                </p>
                <p>{h.body}</p>
                <p className="mt-1 text-xs text-muted-foreground">{h.reason}</p>
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="rounded-lg bg-muted px-3 py-2 text-sm whitespace-pre-wrap">{data.body}</p>
      )}
      {thread ? (
        <ReplyBox
          messageId={data.id}
          disabledReason={thread.optedOut ? `${thread.contact} replied STOP: carriers forbid texting them again until they text START.` : null}
        />
      ) : null}
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
