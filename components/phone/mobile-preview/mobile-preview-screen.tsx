"use client";

import * as React from "react";
import { Bot, Play, Pause, Send, Smartphone } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { formatAudioTime, useAudioPlayer } from "@/components/phone/voice-test/use-audio-player";
import { intentLabel, type MobileVoiceTestResponse } from "@/components/phone/voice-test/types";
import { apiRequest, errorStatus, serverMessage } from "@/lib/platform/api-client";
import { cn } from "@/lib/platform/utils";

/** A chat message (advanced §3): client only. */
export type ChatMessage = {
  id: string;
  role: "user" | "ai";
  content: string;
  timestamp: Date;
  audioUrl?: string;
  intent?: string;
  isError?: boolean;
};

export const CHAT_ERROR_TEXT = "Sorry, I encountered an error processing your request. Please try again.";

const GREETING =
  "Hi! I'm your Switchboard voice assistant. Send me a message the way a caller would, and I'll answer with text and audio.";

function newId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : String(Math.random()).slice(2);
}

function time(date: Date): string {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

const subscribeNever = () => () => {};

/**
 * False while the server renders and while the browser hydrates, true after: clock times (the
 * server's clock and zone are not the visitor's) are drawn only once it is true, so the hydrating
 * render matches the server's HTML (no hydration error #418).
 */
function useHydrated(): boolean {
  return React.useSyncExternalStore(subscribeNever, () => true, () => false);
}

/**
 * /mobile-preview (advanced §2): a phone-sized chat with the voice assistant. Signed in it talks to
 * the organization's first active assistant; signed out to the public demo assistant. One preview
 * session id per page load keeps the conversation's context on the server.
 */
export function MobilePreviewScreen() {
  const [sessionId] = React.useState(() => `mobile-preview-${newId()}`);
  const [messages, setMessages] = React.useState<ChatMessage[]>(() => [
    { id: "greeting", role: "ai", content: GREETING, timestamp: new Date() },
  ]);
  const [draft, setDraft] = React.useState("");
  const [pending, setPending] = React.useState(false);
  const player = useAudioPlayer();
  const hydrated = useHydrated();
  const listRef = React.useRef<HTMLDivElement | null>(null);

  const lastAudio = React.useMemo(() => [...messages].reverse().find((m) => m.audioUrl)?.audioUrl ?? null, [messages]);

  React.useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, pending]);

  const send = async () => {
    const text = draft.trim();
    if (!text || pending) return; // trimmed empty text is not sent (advanced §5)
    setDraft("");
    setMessages((list) => [...list, { id: newId(), role: "user", content: text, timestamp: new Date() }]);
    setPending(true);
    let reply: ChatMessage;
    try {
      const res = await apiRequest("POST", "/api/voice/test", { text, testText: text, sessionId });
      const data = (await res.json()) as MobileVoiceTestResponse;
      if (!data.success || !data.aiResponse) throw new Error(data.error ?? "failed");
      reply = {
        id: newId(),
        role: "ai",
        content: data.aiResponse,
        timestamp: data.timestamp ? new Date(data.timestamp) : new Date(),
        audioUrl: data.audioFile ?? undefined,
        intent: data.intent ?? undefined,
      };
    } catch (error) {
      // The spec's sentence, then the server's reason when it gave one (no assistant, out of credits…).
      // A 5xx says nothing an owner can act on: only a 4xx's reason is added.
      const status = errorStatus(error);
      const reason = status !== null && status >= 400 && status < 500 ? serverMessage(error) : null;
      reply = { id: newId(), role: "ai", content: reason ? `${CHAT_ERROR_TEXT} ${reason}` : CHAT_ERROR_TEXT, timestamp: new Date(), isError: true };
    }
    setMessages((list) => [...list, reply]);
    setPending(false);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="flex w-full flex-1 flex-col items-center gap-6 px-4 py-8" data-testid="mobile-preview">
      <div className="flex max-w-md flex-col items-center gap-2 text-center">
        <Badge variant="outline">
          <Smartphone aria-hidden /> Mobile preview
        </Badge>
        <h1 className="text-2xl font-semibold tracking-tight">Chat with your voice assistant</h1>
        <p className="text-sm text-muted-foreground">Enter sends, Shift+Enter adds a new line. Each reply comes with audio.</p>
      </div>

      {/* The phone frame */}
      <div className="flex h-[40rem] max-h-[80vh] w-full max-w-[24rem] flex-col overflow-hidden rounded-[2.5rem] border-8 border-zinc-800 bg-background shadow-2xl ring-1 ring-border">
        <div className="flex items-center gap-3 border-b border-border bg-card px-4 py-3">
          <span className="flex size-9 items-center justify-center rounded-full bg-primary/15 text-primary">
            <Bot className="size-5" aria-hidden />
          </span>
          <div className="flex flex-col">
            <span className="text-sm font-semibold">Voice Assistant</span>
            <span className="text-xs text-muted-foreground">{pending ? "typing…" : "online"}</span>
          </div>
        </div>

        <div ref={listRef} className="flex flex-1 flex-col gap-3 overflow-y-auto px-3 py-4" role="log" aria-live="polite" data-testid="chat-messages">
          {messages.map((m) => {
            const playing = m.audioUrl !== undefined && player.playingUrl === m.audioUrl;
            return (
              <div
                key={m.id}
                className={cn("flex max-w-[85%] flex-col gap-1", m.role === "user" ? "self-end items-end" : "self-start items-start")}
                data-testid={m.role === "user" ? "chat-user-message" : "chat-ai-message"}
                data-error={m.isError ? "true" : undefined}
              >
                <div
                  className={cn(
                    "whitespace-pre-wrap rounded-2xl px-3 py-2 text-sm",
                    m.role === "user" ? "rounded-br-sm bg-primary text-primary-foreground" : "rounded-bl-sm bg-muted text-foreground",
                    m.isError && "border border-destructive/40 bg-destructive/10 text-destructive",
                  )}
                >
                  {m.content}
                </div>
                <div className="flex flex-wrap items-center gap-2 px-1 text-[11px] text-muted-foreground">
                  {m.role === "ai" && m.intent ? (
                    <Badge variant="secondary" className="px-1.5 py-0 text-[10px]" data-testid="chat-intent">
                      {intentLabel(m.intent)}
                    </Badge>
                  ) : null}
                  {hydrated ? (
                    <time dateTime={m.timestamp.toISOString()} data-testid="chat-timestamp">
                      {time(m.timestamp)}
                    </time>
                  ) : null}
                  {m.role === "ai" && m.audioUrl ? (
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      className="h-6 px-2 text-[11px]"
                      onClick={() => (playing ? player.stop() : void player.play(m.audioUrl!))}
                      aria-pressed={playing}
                      data-testid="chat-play-audio"
                    >
                      {playing ? <Pause className="size-3" aria-hidden /> : <Play className="size-3" aria-hidden />}
                      {playing ? "Playing..." : "Play Audio"}
                    </Button>
                  ) : null}
                </div>
              </div>
            );
          })}
          {pending ? (
            <div className="flex items-center gap-2 self-start rounded-2xl bg-muted px-3 py-2 text-sm text-muted-foreground" role="status" data-testid="chat-thinking">
              <Spinner className="size-3.5" /> Thinking…
            </div>
          ) : null}
        </div>

        {lastAudio ? <LastAudioPlayer url={lastAudio} player={player} /> : null}

        <form
          className="flex items-end gap-2 border-t border-border bg-card p-3"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Textarea
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Type a message…"
            rows={1}
            maxLength={1000}
            className="max-h-32 min-h-10 flex-1 resize-none"
            aria-label="Message"
            data-testid="chat-input"
          />
          <Button type="submit" size="icon" disabled={!draft.trim() || pending} aria-label="Send" data-testid="chat-send">
            {pending ? <Spinner /> : <Send aria-hidden />}
          </Button>
        </form>
        {/* Plays a reply's audio when its Play Audio button is pressed. */}
        <audio {...player.audioProps} className="hidden" data-testid="chat-audio" />
      </div>
    </div>
  );
}

/**
 * The player for the last audio file (advanced §2). It drives the screen's one <audio> element, so
 * its time and progress follow whatever that element is really playing of this file — also when a
 * reply's Play Audio started it.
 */
function LastAudioPlayer({ url, player }: { url: string; player: ReturnType<typeof useAudioPlayer> }) {
  const current = player.loadedUrl === url;
  const playing = player.playingUrl === url;
  const elapsed = current ? player.position.currentTime : 0;
  const duration = current ? player.position.duration : null;
  const percent = duration ? Math.min(100, Math.round((elapsed / duration) * 100)) : 0;
  return (
    <div className="flex items-center gap-2 border-t border-border bg-card px-3 py-2" data-testid="chat-last-audio" data-src={url}>
      <Button
        type="button"
        size="icon"
        variant="ghost"
        className="size-8 shrink-0"
        onClick={() => (playing ? player.stop() : void player.play(url))}
        aria-label={playing ? "Pause the last reply" : "Play the last reply"}
        data-testid="chat-last-audio-toggle"
      >
        {playing ? <Pause aria-hidden /> : <Play aria-hidden />}
      </Button>
      <div
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Last reply's audio"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${formatAudioTime(elapsed)} of ${formatAudioTime(duration)}`}
        data-testid="chat-last-audio-progress"
      >
        <div className="h-full bg-primary transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0 text-xs tabular-nums text-muted-foreground" data-testid="chat-last-audio-time">
        {formatAudioTime(elapsed)} / {formatAudioTime(duration)}
      </span>
    </div>
  );
}
