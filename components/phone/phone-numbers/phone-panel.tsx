"use client";

import * as React from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Bot, Mic, MessageSquare, Phone, PhoneForwarded, PhoneOff, Send, User, Voicemail } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { apiRequest } from "@/lib/platform/api-client";
import type { CallDetail } from "@/lib/receptionist/call-history/service";
import type { TelephonyAccountView } from "@/lib/phone/telephony/account";
import {
  SimulatedCall,
  sendSimulatedSms,
  type CallEvent,
  type CallHost,
  type CarrierAccount,
  type CarrierTransport,
  type RecordingAnswer,
} from "@/lib/phone/telephony/simulator/carrier-client";
import { cn } from "@/lib/platform/utils";
import { formatPhoneNumber } from "./format";
import type { PhoneNumber } from "./use-phone-numbers";

/**
 * The phone panel: a real client of the number's webhooks, playing the simulated carrier in the
 * browser. It signs each request with the organization's simulated-carrier auth token exactly as
 * Twilio does, follows the TwiML it gets (plays <Play>, shows <Say>, waits in <Gather> for what you
 * type or say, rings a <Dial>, records a <Record>), and shows the call's live transcript from the
 * server with each reply's latency. Texts go through the SMS webhook the same way.
 */

const DEFAULT_FROM = "+15555550100";

/**
 * Requests go to this page's own origin. The signature covers the public URL the carrier would call
 * (PUBLIC_URL), or, when the server has none, the URL actually requested.
 */
/** Keeps a scrolling list at its newest line whenever a line is added (the live transcript, the text thread). */
function useNewestLine(count: number) {
  const ref = React.useRef<HTMLOListElement>(null);
  React.useEffect(() => {
    const list = ref.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);
  return ref;
}

function transportFor(view: TelephonyAccountView): CarrierTransport {
  const local = (url: string) => {
    const u = new URL(url, window.location.origin);
    return `${window.location.origin}${u.pathname}${u.search}`;
  };
  return {
    fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
    parseXml: (xml) => new DOMParser().parseFromString(xml, "text/xml"),
    route: local,
    signedUrl: view.signaturesUsePublicUrl ? undefined : local,
    now: () => performance.now(),
  };
}

type SpeechRecognitionLike = {
  lang: string;
  interimResults: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
};

function speechRecognition(): (new () => SpeechRecognitionLike) | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as { SpeechRecognition?: new () => SpeechRecognitionLike; webkitSpeechRecognition?: new () => SpeechRecognitionLike };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

type Waiting =
  | { kind: "listen"; resolve: (text: string) => void }
  | { kind: "dial"; number: string; resolve: (status: "completed" | "no-answer") => void }
  | { kind: "record"; resolve: (answer: RecordingAnswer) => void }
  | null;

type Phase = "idle" | "connecting" | "speaking" | "listening" | "dialing" | "recording" | "thinking" | "ended";

function useCarrierAccount(open: boolean) {
  return useQuery<TelephonyAccountView>({ queryKey: ["/api/telephony/account"], enabled: open, staleTime: 60_000 });
}

function carrierOf(view: TelephonyAccountView): CarrierAccount {
  return {
    accountSid: view.simulatedCarrier.accountSid,
    authToken: view.simulatedCarrier.authToken,
    voiceUrl: view.voiceUrl,
    statusCallbackUrl: view.statusCallbackUrl,
    smsUrl: view.smsUrl,
    recordingsUrl: view.simulatorRecordingsUrl,
  };
}

function CallTab({ number, account, transport }: { number: PhoneNumber; account: CarrierAccount; transport: CarrierTransport }) {
  const [from, setFrom] = React.useState(DEFAULT_FROM);
  const [phase, setPhase] = React.useState<Phase>("idle");
  const [waiting, setWaiting] = React.useState<Waiting>(null);
  const [said, setSaid] = React.useState("");
  const [voicemail, setVoicemail] = React.useState("");
  const [detail, setDetail] = React.useState<CallDetail | null>(null);
  const [lastRoundTrip, setLastRoundTrip] = React.useState<number | null>(null);
  const [notice, setNotice] = React.useState<string | null>(null);
  const [listeningAloud, setListeningAloud] = React.useState(false);
  const callRef = React.useRef<SimulatedCall | null>(null);
  const audioRef = React.useRef<HTMLAudioElement | null>(null);
  const [Recognition] = React.useState(() => speechRecognition());

  const refresh = React.useCallback(async (sid: string) => {
    try {
      const res = await apiRequest("GET", `/api/telephony/calls/${sid}`);
      setDetail((await res.json()) as CallDetail);
    } catch {
      // The transcript catches up on the next request.
    }
  }, []);

  // After the call: look again until the post-call job has written the summary.
  React.useEffect(() => {
    if (phase !== "ended" || !callRef.current || detail?.analyzedAt) return;
    const sid = callRef.current.callSid;
    const timer = setInterval(() => void refresh(sid), 2000);
    return () => clearInterval(timer);
  }, [phase, detail?.analyzedAt, refresh]);

  // Hang up if the panel closes mid-call.
  React.useEffect(() => () => callRef.current?.hangUp(), []);

  const host: CallHost = React.useMemo(
    () => ({
      play: (url, signal) =>
        new Promise<void>((resolve) => {
          const audio = audioRef.current;
          if (!audio) return resolve();
          setPhase("speaking");
          let settled = false;
          const done = () => {
            if (settled) return;
            settled = true;
            clearTimeout(guard);
            audio.removeEventListener("ended", done);
            audio.removeEventListener("error", failed);
            signal.removeEventListener("abort", stop);
            resolve();
          };
          const failed = () => {
            setNotice("This browser could not play the assistant's audio; the words are in the transcript.");
            done();
          };
          const stop = () => {
            audio.pause();
            done();
          };
          // Never wait forever on a clip (a stalled or silent output device).
          const guard = setTimeout(done, 60_000);
          audio.addEventListener("ended", done);
          audio.addEventListener("error", failed);
          signal.addEventListener("abort", stop);
          audio.src = url;
          audio.play().catch(failed);
        }),
      say: async (text) => {
        setNotice(`The line says: “${text}”`);
      },
      listen: (signal) =>
        new Promise<string>((resolve) => {
          setPhase("listening");
          const finish = (text: string) => {
            setWaiting(null);
            setPhase("thinking");
            resolve(text);
          };
          signal.addEventListener("abort", () => finish(""), { once: true });
          setWaiting({ kind: "listen", resolve: finish });
        }),
      dial: (numberToDial, signal) =>
        new Promise((resolve) => {
          setPhase("dialing");
          const finish = (status: "completed" | "no-answer") => {
            setWaiting(null);
            setPhase("thinking");
            resolve(status);
          };
          signal.addEventListener("abort", () => finish("no-answer"), { once: true });
          setWaiting({ kind: "dial", number: numberToDial, resolve: finish });
        }),
      record: (signal) =>
        new Promise<RecordingAnswer>((resolve) => {
          setPhase("recording");
          const finish = (answer: RecordingAnswer) => {
            setWaiting(null);
            setPhase("thinking");
            resolve(answer);
          };
          signal.addEventListener("abort", () => finish(null), { once: true });
          setWaiting({ kind: "record", resolve: finish });
        }),
      onEvent: (event: CallEvent) => {
        if (event.type === "request") {
          setLastRoundTrip(event.ms);
          if (callRef.current) void refresh(callRef.current.callSid);
        }
        if (event.type === "unsupported") {
          setNotice(
            event.verb === "Connect"
              ? "This number streams its calls through ConversationRelay, which needs Twilio's media servers: call it from a phone, or try it with `npm run simulate:call`."
              : `The simulator does not handle <${event.verb}>; the call ends here.`,
          );
        }
        if (event.type === "recording-started") setNotice("This call is recorded from here on (after the notice); the recording appears in the call's detail once the call ends.");
        if (event.type === "recording-failed") setNotice(`The call's recording could not be stored: ${event.message}`);
        if (event.type === "ended") setPhase("ended");
      },
    }),
    [refresh],
  );

  const start = () => {
    setDetail(null);
    setNotice(null);
    setLastRoundTrip(null);
    setPhase("connecting");
    const call = new SimulatedCall(account, transport, host, { from: from.trim() || DEFAULT_FROM, to: number.phoneNumber, callerName: "Phone panel" });
    callRef.current = call;
    call
      .start()
      .then(() => refresh(call.callSid))
      .catch((error: Error) => {
        setPhase("ended");
        toast.error("Call failed", { description: error.message });
      });
  };

  const hangUp = () => {
    callRef.current?.hangUp();
    audioRef.current?.pause();
  };

  const submitSpeech = (event: React.FormEvent) => {
    event.preventDefault();
    if (waiting?.kind !== "listen") return;
    const text = said.trim();
    if (!text) return;
    setSaid("");
    waiting.resolve(text);
  };

  const speakAloud = () => {
    if (!Recognition) return;
    const recognition = new Recognition();
    recognition.lang = "en-US";
    recognition.interimResults = false;
    recognition.onresult = (e) => {
      const text = Array.from(e.results)
        .map((r) => r[0]?.transcript ?? "")
        .join(" ")
        .trim();
      if (text) setSaid(text);
    };
    recognition.onerror = (e) => toast.error("Speech recognition failed", { description: `${e.error}: type what the caller says instead.` });
    recognition.onend = () => setListeningAloud(false);
    setListeningAloud(true);
    recognition.start();
  };

  const inCall = phase !== "idle" && phase !== "ended";
  const turns = detail?.transcript ?? [];
  const transcriptRef = useNewestLine(turns.length);

  return (
    <div className="flex flex-col gap-4" data-testid="phone-panel-call" data-phase={phase}>
      <audio ref={audioRef} preload="auto" className="hidden" data-testid="phone-panel-audio" />
      {!inCall ? (
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex min-w-48 flex-1 flex-col gap-1.5">
            <Label htmlFor="phone-panel-from">Calling from</Label>
            <Input id="phone-panel-from" type="tel" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <Button onClick={start} data-testid="phone-panel-start">
            <Phone aria-hidden />
            {phase === "ended" ? "Call again" : `Call ${formatPhoneNumber(number.phoneNumber)}`}
          </Button>
        </div>
      ) : (
        <div className="flex items-center justify-between gap-3 rounded-lg border border-border px-3 py-2">
          <span className="flex items-center gap-2 text-sm" data-testid="phone-panel-status">
            {phase === "speaking" ? <Bot className="size-4 text-primary" aria-hidden /> : <Spinner />}
            {phase === "connecting"
              ? "Ringing…"
              : phase === "speaking"
                ? "The assistant is speaking…"
                : phase === "listening"
                  ? "Your turn: say something"
                  : phase === "dialing"
                    ? "Transferring…"
                    : phase === "recording"
                      ? "Recording your voicemail"
                      : "Waiting for the assistant…"}
            {lastRoundTrip !== null ? <span className="text-xs text-muted-foreground">· answered in {Math.round(lastRoundTrip)} ms</span> : null}
          </span>
          <Button variant="destructive" size="sm" onClick={hangUp} data-testid="phone-panel-hangup">
            <PhoneOff aria-hidden />
            Hang up
          </Button>
        </div>
      )}

      {notice ? <p className="rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">{notice}</p> : null}

      <ol ref={transcriptRef} className="flex max-h-72 min-h-24 flex-col gap-2 overflow-y-auto rounded-lg border border-border p-3" data-testid="phone-panel-transcript" aria-live="polite">
        {turns.length === 0 ? <li className="text-sm text-muted-foreground">The live transcript appears here.</li> : null}
        {turns.map((turn, index) => {
          const isCaller = turn.speaker === "caller";
          return (
            <li key={index} className={cn("flex gap-2", isCaller ? "flex-row-reverse" : "")} data-speaker={turn.speaker}>
              <span className={cn("mt-1 flex size-6 shrink-0 items-center justify-center rounded-full", isCaller ? "bg-muted" : "bg-primary/15 text-primary")} aria-hidden>
                {isCaller ? <User className="size-3.5" /> : <Bot className="size-3.5" />}
              </span>
              <div className={cn("max-w-[80%] rounded-lg px-3 py-1.5 text-sm", isCaller ? "bg-muted" : "bg-primary/15")}>
                <p>{turn.text}</p>
                {turn.latencyMs !== undefined ? (
                  <p className="text-[11px] text-muted-foreground" data-testid="phone-panel-latency">
                    replied in {turn.latencyMs} ms
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>

      {waiting?.kind === "listen" ? (
        <form onSubmit={submitSpeech} className="flex flex-col gap-2" data-testid="phone-panel-say">
          <Label htmlFor="phone-panel-said">What the caller says</Label>
          <div className="flex gap-2">
            <Input id="phone-panel-said" autoFocus value={said} onChange={(e) => setSaid(e.target.value)} placeholder="What are your opening hours?" />
            {Recognition ? (
              <Button type="button" variant="outline" size="icon" onClick={speakAloud} disabled={listeningAloud} aria-label="Speak instead of typing">
                {listeningAloud ? <Spinner /> : <Mic aria-hidden />}
              </Button>
            ) : null}
            <Button type="submit" disabled={said.trim() === ""} data-testid="phone-panel-send">
              <Send aria-hidden />
              Say it
            </Button>
          </div>
          <button type="button" className="self-start text-xs text-muted-foreground underline-offset-2 hover:underline" onClick={() => waiting.resolve("")}>
            Stay silent
          </button>
        </form>
      ) : null}

      {waiting?.kind === "dial" ? (
        <div className="flex flex-col gap-2 rounded-lg border border-border p-3" data-testid="phone-panel-dial">
          <p className="flex items-center gap-2 text-sm">
            <PhoneForwarded className="size-4 text-primary" aria-hidden /> Ringing {formatPhoneNumber(waiting.number)} (the forward-to number)…
          </p>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => waiting.resolve("completed")}>
              Answer as the team
            </Button>
            <Button size="sm" variant="outline" onClick={() => waiting.resolve("no-answer")} data-testid="phone-panel-no-answer">
              Let it ring out
            </Button>
          </div>
        </div>
      ) : null}

      {waiting?.kind === "record" ? (
        <form
          className="flex flex-col gap-2 rounded-lg border border-border p-3"
          data-testid="phone-panel-record"
          onSubmit={(e) => {
            e.preventDefault();
            const text = voicemail.trim();
            setVoicemail("");
            waiting.resolve(text ? { text } : null);
          }}
        >
          <Label htmlFor="phone-panel-voicemail" className="flex items-center gap-2">
            <Voicemail className="size-4" aria-hidden /> After the beep: your voicemail
          </Label>
          <Textarea id="phone-panel-voicemail" value={voicemail} onChange={(e) => setVoicemail(e.target.value)} placeholder="Hi, this is…" />
          <p className="text-xs text-muted-foreground">The simulated carrier speaks it into a real recording, which is then stored and transcribed like any voicemail.</p>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={voicemail.trim() === ""}>
              Leave voicemail
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => waiting.resolve(null)}>
              Leave no message
            </Button>
          </div>
        </form>
      ) : null}

      {phase === "ended" && detail ? (
        <div className="flex flex-col gap-1 rounded-lg border border-border p-3 text-sm" data-testid="phone-panel-ended">
          <p>
            The call is in{" "}
            <Link href="/call-history" className="text-primary underline-offset-2 hover:underline">
              Call History
            </Link>
            .
          </p>
          {detail.summary ? (
            <p className="text-muted-foreground" data-testid="phone-panel-summary">
              {detail.summary}
            </p>
          ) : (
            <p className="text-muted-foreground">Writing the summary…</p>
          )}
        </div>
      ) : null}
    </div>
  );
}

type SmsLine = { from: "me" | "them"; body: string; ms?: number };

function TextTab({ number, account, transport }: { number: PhoneNumber; account: CarrierAccount; transport: CarrierTransport }) {
  const [from, setFrom] = React.useState(DEFAULT_FROM);
  const [body, setBody] = React.useState("");
  const [lines, setLines] = React.useState<SmsLine[]>([]);
  const threadRef = useNewestLine(lines.length);
  const [sending, setSending] = React.useState(false);

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (!text) return;
    setBody("");
    setSending(true);
    setLines((l) => [...l, { from: "me", body: text }]);
    try {
      const result = await sendSimulatedSms(account, transport, { from: from.trim() || DEFAULT_FROM, to: number.phoneNumber, body: text });
      setLines((l) => [...l, ...result.replies.map((r) => ({ from: "them" as const, body: r, ms: Math.round(result.ms) }))]);
      if (result.replies.length === 0) setLines((l) => [...l, { from: "them", body: "(no reply)" }]);
    } catch (error) {
      toast.error("Text failed", { description: (error as Error).message });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="flex flex-col gap-4" data-testid="phone-panel-text">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="phone-panel-sms-from">Texting from</Label>
        <Input id="phone-panel-sms-from" type="tel" value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <ol ref={threadRef} className="flex max-h-72 min-h-24 flex-col gap-2 overflow-y-auto rounded-lg border border-border p-3" aria-live="polite" data-testid="phone-panel-sms-thread">
        {lines.length === 0 ? <li className="text-sm text-muted-foreground">Texts and replies appear here. STOP, START and HELP work as on a real carrier.</li> : null}
        {lines.map((line, i) => (
          <li key={i} className={cn("flex", line.from === "me" ? "justify-end" : "justify-start")}>
            <div className={cn("max-w-[80%] rounded-lg px-3 py-1.5 text-sm whitespace-pre-wrap", line.from === "me" ? "bg-muted" : "bg-primary/15")}>
              <p>{line.body}</p>
              {line.ms !== undefined ? <p className="text-[11px] text-muted-foreground">replied in {line.ms} ms</p> : null}
            </div>
          </li>
        ))}
      </ol>
      <form onSubmit={send} className="flex gap-2">
        <Input value={body} onChange={(e) => setBody(e.target.value)} placeholder="Do you have anything on Saturday?" aria-label="Text message" maxLength={1600} />
        <Button type="submit" disabled={sending || body.trim() === ""} data-testid="phone-panel-sms-send">
          {sending ? <Spinner /> : <MessageSquare aria-hidden />}
          Send
        </Button>
      </form>
    </div>
  );
}

/** Call: the phone panel for one number. */
export function PhonePanel({
  number,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  number: PhoneNumber;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (the Call button), so a keyboard user is not left at the page's top. */
  returnFocusTo?: React.RefObject<HTMLElement | null>;
}) {
  const account = useCarrierAccount(open);
  const formatted = formatPhoneNumber(number.phoneNumber);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[92vh] max-w-xl overflow-y-auto"
        data-testid="phone-panel"
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.current) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            Call {formatted}
            <Badge variant="outline">{number.provider === "simulated" ? "Practice number" : "Twilio"}</Badge>
          </DialogTitle>
          <DialogDescription>
            {number.friendlyName}: call or text this number the way a caller would, and see what the assistant does. What you make here lands in Call History.
          </DialogDescription>
          <details className="text-xs text-muted-foreground" data-testid="phone-panel-details">
            <summary className="cursor-pointer hover:text-foreground">Details</summary>
            <p className="mt-1">The panel plays the carrier: it sends the number&apos;s signed voice and SMS webhooks, exactly as Twilio would.</p>
          </details>
        </DialogHeader>
        {number.provider !== "simulated" ? (
          <p className="rounded-md bg-muted px-3 py-2 text-sm" data-testid="phone-panel-twilio">
            {formatted} is a Twilio number: Twilio signs its calls with your Twilio auth token, which Switchboard never sends to the browser. Call it from
            any phone — it is answered by the same assistant — and the call appears in Call History.
          </p>
        ) : account.isLoading ? (
          <Spinner />
        ) : account.isError || !account.data ? (
          <p role="alert" className="text-sm text-destructive">
            We couldn&apos;t load the simulated carrier account.
          </p>
        ) : !number.isActive ? (
          <p className="rounded-md bg-muted px-3 py-2 text-sm">This number is inactive: the carrier answers its calls with &quot;not in service&quot;. Switch it on to try it.</p>
        ) : (
          <Tabs defaultValue="call">
            <TabsList>
              <TabsTrigger value="call">
                <Phone className="size-4" aria-hidden /> Call
              </TabsTrigger>
              <TabsTrigger value="text">
                <MessageSquare className="size-4" aria-hidden /> Text
              </TabsTrigger>
            </TabsList>
            <TabsContent value="call">
              <CallTab number={number} account={carrierOf(account.data)} transport={transportFor(account.data)} />
            </TabsContent>
            <TabsContent value="text">
              <TextTab number={number} account={carrierOf(account.data)} transport={transportFor(account.data)} />
            </TabsContent>
          </Tabs>
        )}
      </DialogContent>
    </Dialog>
  );
}
