/**
 * The simulated carrier's side of a call or a text: what Twilio does with a number's webhooks,
 * written once for the browser's phone panel, `npm run simulate:call` and `npm run bench:phone`.
 * It places signed form-encoded requests exactly as Twilio signs them (lib/phone/telephony/signature.ts)
 * and follows the TwiML it gets back: <Say>, <Play>, <Pause>, <Gather> (speech), <Redirect>,
 * <Dial>, <Record>, <Start><Recording> (the whole call from there on), <Hangup>, <Reject>, and
 * <Message> for texts. The host (panel or script) plays
 * the audio, supplies what the caller says, and decides how a transfer or a recording goes.
 *
 * No Node or browser APIs beyond `fetch` and an XML parser handed in, so it runs in both.
 */
import { twilioSid, twilioSignature } from "../signature";

/** The few DOM members used, shared by the browser's DOMParser and @xmldom/xmldom. */
export type XmlNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
  getAttribute?: (name: string) => string | null;
};
export type XmlParser = (xml: string) => { documentElement: XmlNode | null };

export type CarrierAccount = {
  accountSid: string;
  authToken: string;
  voiceUrl: string;
  statusCallbackUrl: string;
  smsUrl: string;
  /** The simulated carrier's recording storage (POST, Basic auth). */
  recordingsUrl: string;
};

export type CarrierTransport = {
  fetch: typeof fetch;
  parseXml: XmlParser;
  /** The URL actually requested for a signed public URL (the browser posts to its own origin). */
  route?: (url: string) => string;
  /**
   * The URL to sign for a public URL. By default the public URL itself (the server checks signatures
   * against PUBLIC_URL); when the server has no PUBLIC_URL it checks the URL as the request arrived,
   * so the client signs the URL it actually requests.
   */
  signedUrl?: (url: string) => string;
  now?: () => number;
};

export type Verb = { name: string; attrs: Record<string, string>; text: string; children: Verb[] };

export function toVerbs(root: XmlNode): Verb[] {
  const out: Verb[] = [];
  const nodes = root.childNodes;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.nodeType !== 1) continue;
    const attrs: Record<string, string> = {};
    const element = node as XmlNode & { attributes?: ArrayLike<{ name: string; value: string }> };
    if (element.attributes) for (let a = 0; a < element.attributes.length; a++) attrs[element.attributes[a].name] = element.attributes[a].value;
    out.push({ name: node.nodeName, attrs, text: (node.textContent ?? "").trim(), children: toVerbs(node) });
  }
  return out;
}

export function parseTwimlVerbs(parseXml: XmlParser, xml: string): Verb[] {
  const doc = parseXml(xml);
  const root = doc.documentElement;
  if (!root || root.nodeName !== "Response") throw new Error(`Not TwiML: ${xml.slice(0, 200)}`);
  return toVerbs(root);
}

export type WebhookResult = {
  status: number;
  verbs: Verb[];
  /** Round trip as the carrier saw it. */
  ms: number;
  /** The server's own figures from Server-Timing (total, llm, tts), when it sent them. */
  serverTiming: Record<string, number>;
};

function parseServerTiming(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (header ?? "").split(",")) {
    const m = /^\s*([\w-]+)\s*;\s*dur=([\d.]+)/.exec(part);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/** One signed webhook request, answered with TwiML. */
export async function postWebhook(account: CarrierAccount, transport: CarrierTransport, url: string, params: Record<string, string>): Promise<WebhookResult> {
  const now = transport.now ?? (() => Date.now());
  const started = now();
  const res = await transport.fetch((transport.route ?? ((u) => u))(url), {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(account.authToken, transport.signedUrl?.(url) ?? url, params),
      "i-twilio-idempotency-token": twilioSid("CA").slice(2),
    },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  const ms = now() - started;
  if (!res.ok) throw new CarrierError(`The webhook ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`, res.status);
  const verbs = (res.headers.get("content-type") ?? "").includes("xml") ? parseTwimlVerbs(transport.parseXml, text) : [];
  return { status: res.status, verbs, ms, serverTiming: parseServerTiming(res.headers.get("server-timing")) };
}

export class CarrierError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "CarrierError";
  }
}

// ─── Calls ────────────────────────────────────────────────────────────────────────────────────

export type CallEvent =
  | { type: "request"; path: string; ms: number; serverMs: number | null; serverTiming: Record<string, number> }
  | { type: "say"; text: string }
  | { type: "play"; url: string }
  | { type: "listening" }
  | { type: "caller"; text: string }
  | { type: "dial"; number: string }
  | { type: "record" }
  | { type: "recording-started" }
  | { type: "recording-failed"; message: string }
  | { type: "unsupported"; verb: string }
  | { type: "ended"; reason: "hangup" | "caller" | "end-of-document" | "error"; durationSeconds: number };

export type RecordingAnswer = { text: string } | { audioBase64: string; contentType: string } | null;

export type CallHost = {
  /** Plays a <Play> clip and resolves when it is done (the panel waits for the audio; the script does not). */
  play(url: string, signal: AbortSignal): Promise<void>;
  /** Shows a <Say> (the panel may speak it). */
  say?(text: string, signal: AbortSignal): Promise<void>;
  /** What the caller says in a <Gather>; "" for silence. */
  listen(signal: AbortSignal): Promise<string>;
  /** How the transferred-to phone answers: Twilio's DialCallStatus. */
  dial(number: string, signal: AbortSignal): Promise<"completed" | "no-answer" | "busy" | "failed">;
  /** The caller's voicemail after the beep, or null to leave none. */
  record(signal: AbortSignal): Promise<RecordingAnswer>;
  onEvent?(event: CallEvent): void;
};

/** What a whole-call recording heard, in order: the carrier turns it into audio (lib/phone/telephony/simulator-recordings.ts). */
export type RecordedSegment = { speaker: "assistant"; say: string } | { speaker: "assistant"; play: string } | { speaker: "caller"; say: string };

export type CallOptions = { from: string; to: string; callerName?: string; callSid?: string };

/**
 * Places one call and follows the TwiML until it ends. `hangUp()` ends it from the caller's side
 * at any moment; either way the status callback reports "completed" with the duration.
 */
export class SimulatedCall {
  readonly callSid: string;
  private readonly abort = new AbortController();
  private startedAt = 0;
  private ended = false;
  private done: Promise<void> | null = null;
  /** A <Start><Recording> is running: where its status goes, and what it has heard so far. */
  private recording: { callbackUrl: string; segments: RecordedSegment[] } | null = null;

  constructor(
    private readonly account: CarrierAccount,
    private readonly transport: CarrierTransport,
    private readonly host: CallHost,
    private readonly options: CallOptions,
  ) {
    this.callSid = options.callSid ?? twilioSid("CA");
  }

  private now() {
    return (this.transport.now ?? (() => Date.now()))();
  }

  private params(extra: Record<string, string>): Record<string, string> {
    return {
      AccountSid: this.account.accountSid,
      ApiVersion: "2010-04-01",
      CallSid: this.callSid,
      CallStatus: "in-progress",
      Direction: "inbound",
      From: this.options.from,
      To: this.options.to,
      ...(this.options.callerName ? { CallerName: this.options.callerName } : {}),
      ...extra,
    };
  }

  private emit(event: CallEvent) {
    this.host.onEvent?.(event);
  }

  private async request(url: string, extra: Record<string, string>): Promise<Verb[]> {
    const result = await postWebhook(this.account, this.transport, url, this.params(extra));
    const u = new URL(url);
    this.emit({ type: "request", path: u.pathname + u.search, ms: result.ms, serverMs: result.serverTiming.total ?? null, serverTiming: result.serverTiming });
    return result.verbs;
  }

  /** Starts the call; resolves when it has ended. */
  start(): Promise<void> {
    this.done ??= this.run();
    return this.done;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  hangUp(): void {
    this.abort.abort(new CarrierError("The caller hung up"));
  }

  private async run(): Promise<void> {
    this.startedAt = this.now();
    let reason: "hangup" | "caller" | "end-of-document" | "error" = "end-of-document";
    try {
      let verbs = await this.request(this.account.voiceUrl, { CallStatus: "ringing" });
      for (;;) {
        const next = await this.follow(verbs);
        if (next === "hangup") {
          reason = "hangup";
          break;
        }
        if (next === null) break;
        verbs = next;
      }
    } catch (error) {
      if (this.abort.signal.aborted) reason = "caller";
      else {
        reason = "error";
        this.finish(reason);
        await this.reportStatus().catch(() => undefined);
        throw error;
      }
    }
    this.finish(reason);
    await this.reportStatus().catch(() => undefined);
    await this.finishRecording().catch((error) => this.emit({ type: "recording-failed", message: error instanceof Error ? error.message : String(error) }));
  }

  /** Like Twilio, a whole-call recording is announced after the call has ended: stored at the carrier, then its status callback. */
  private async finishRecording() {
    const recording = this.recording;
    this.recording = null;
    if (!recording || recording.segments.length === 0) return;
    const stored = await this.uploadRecording({ segments: recording.segments });
    await postWebhook(this.account, this.transport, recording.callbackUrl, this.params({
      CallStatus: "completed",
      RecordingSid: stored.sid,
      RecordingUrl: stored.url,
      RecordingStatus: "completed",
      RecordingDuration: String(stored.durationSeconds ?? 1),
      RecordingChannels: "1",
      RecordingSource: "StartCallRecording",
    }));
  }

  private durationSeconds() {
    return Math.max(0, Math.round((this.now() - this.startedAt) / 1000));
  }

  private finish(reason: "hangup" | "caller" | "end-of-document" | "error") {
    if (this.ended) return;
    this.ended = true;
    this.emit({ type: "ended", reason, durationSeconds: this.durationSeconds() });
  }

  private async reportStatus() {
    await postWebhook(this.account, this.transport, this.account.statusCallbackUrl, this.params({ CallStatus: "completed", CallDuration: String(this.durationSeconds()) }));
  }

  private check() {
    if (this.abort.signal.aborted) throw this.abort.signal.reason;
  }

  private async speak(verbs: Verb[]) {
    for (const verb of verbs) {
      this.check();
      if (verb.name === "Play") {
        this.recording?.segments.push({ speaker: "assistant", play: verb.text });
        this.emit({ type: "play", url: verb.text });
        await this.host.play((this.transport.route ?? ((u) => u))(verb.text), this.abort.signal);
      } else if (verb.name === "Say") {
        this.recording?.segments.push({ speaker: "assistant", say: verb.text });
        this.emit({ type: "say", text: verb.text });
        await this.host.say?.(verb.text, this.abort.signal);
      } else if (verb.name === "Pause") {
        // A pause in the script is silence: nothing to wait for in a simulation.
      }
    }
  }

  /** Runs a TwiML document: the next document, "hangup", or null when the call is over. */
  private async follow(verbs: Verb[]): Promise<Verb[] | "hangup" | null> {
    for (let i = 0; i < verbs.length; i++) {
      const verb = verbs[i];
      this.check();
      switch (verb.name) {
        case "Say":
        case "Play":
        case "Pause":
          await this.speak([verb]);
          break;
        case "Gather": {
          await this.speak(verb.children);
          this.check();
          this.emit({ type: "listening" });
          const heard = (await this.host.listen(this.abort.signal)).trim();
          this.check();
          if (heard) {
            this.recording?.segments.push({ speaker: "caller", say: heard });
            this.emit({ type: "caller", text: heard });
          }
          const action = verb.attrs.action;
          if (!heard && verb.attrs.actionOnEmptyResult !== "true") break; // Twilio falls through to the next verb
          if (!action) return null;
          return this.request(action, heard ? { SpeechResult: heard, Confidence: "0.9" } : {});
        }
        case "Reject":
          return "hangup";
        case "Redirect":
          return this.request(verb.text, {});
        case "Dial": {
          const number = verb.children.find((c) => c.name === "Number")?.text ?? verb.text;
          this.emit({ type: "dial", number });
          const started = this.now();
          const status = await this.host.dial(number, this.abort.signal);
          this.check();
          // Twilio plays the <Number url> TwiML to whoever answers before bridging: the briefing.
          const whisperUrl = verb.children.find((c) => c.name === "Number")?.attrs.url;
          if (status === "completed" && whisperUrl) {
            const whisper = await this.request(whisperUrl, {});
            for (const v of whisper) if (v.name === "Say") this.emit({ type: "say", text: `Whispered to ${number}: ${v.text}` });
          }
          if (!verb.attrs.action) {
            if (status === "completed") return "hangup";
            break;
          }
          return this.request(verb.attrs.action, {
            DialCallStatus: status,
            DialCallSid: twilioSid("CA"),
            DialCallDuration: String(status === "completed" ? Math.max(1, Math.round((this.now() - started) / 1000)) : 0),
          });
        }
        case "Record": {
          this.emit({ type: "record" });
          const answer = await this.host.record(this.abort.signal);
          this.check();
          if (!answer) break; // Twilio skips the action for an empty recording and goes on
          const recording = await this.uploadRecording(answer);
          const recordingUrl = recording.url;
          const callbackUrl = verb.attrs.recordingStatusCallback;
          const next = verb.attrs.action
            ? await this.request(verb.attrs.action, {
                RecordingSid: recording.sid,
                RecordingUrl: recordingUrl,
                RecordingDuration: String(recording.durationSeconds ?? 1),
                Digits: "#",
              })
            : null;
          if (callbackUrl) {
            await postWebhook(this.account, this.transport, callbackUrl, this.params({
              RecordingSid: recording.sid,
              RecordingUrl: recordingUrl,
              RecordingStatus: "completed",
              RecordingDuration: String(recording.durationSeconds ?? 1),
              RecordingChannels: "1",
              RecordingSource: "RecordVerb",
            }));
          }
          if (next) return next;
          break;
        }
        case "Start": {
          // <Start><Recording>: from here on the call is recorded (announced once the call has ended).
          const recording = verb.children.find((c) => c.name === "Recording");
          if (recording?.attrs.recordingStatusCallback && !this.recording) {
            this.recording = { callbackUrl: recording.attrs.recordingStatusCallback, segments: [] };
            this.emit({ type: "recording-started" });
          }
          break;
        }
        case "Hangup":
        case "Reject":
          return "hangup";
        default:
          // <Connect> (ConversationRelay, Media Streams) needs a WebSocket client: the simulator ends the call.
          this.emit({ type: "unsupported", verb: verb.name });
          return "hangup";
      }
    }
    return null;
  }

  private async uploadRecording(answer: NonNullable<RecordingAnswer> | { segments: RecordedSegment[] }): Promise<{ sid: string; url: string; durationSeconds: number | null }> {
    const basic = base64(`${this.account.accountSid}:${this.account.authToken}`);
    const res = await this.transport.fetch((this.transport.route ?? ((u) => u))(this.account.recordingsUrl), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${basic}` },
      body: JSON.stringify({ callSid: this.callSid, ...answer }),
    });
    const body = (await res.json().catch(() => ({}))) as { sid?: string; url?: string; durationSeconds?: number | null; message?: string };
    if (!res.ok || !body.sid || !body.url) throw new CarrierError(`The simulated carrier could not store the recording: ${body.message ?? res.status}`, res.status);
    return { sid: body.sid, url: body.url, durationSeconds: body.durationSeconds ?? null };
  }
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

// ─── Texts ────────────────────────────────────────────────────────────────────────────────────

export type SmsResult = { messageSid: string; replies: string[]; ms: number };

/** Sends one text to the number's SMS webhook; the replies are the <Message>s it answers with. */
export async function sendSimulatedSms(
  account: CarrierAccount,
  transport: CarrierTransport,
  input: { from: string; to: string; body: string },
): Promise<SmsResult> {
  const messageSid = twilioSid("SM");
  const result = await postWebhook(account, transport, account.smsUrl, {
    AccountSid: account.accountSid,
    ApiVersion: "2010-04-01",
    MessageSid: messageSid,
    SmsSid: messageSid,
    From: input.from,
    To: input.to,
    Body: input.body,
    NumMedia: "0",
    NumSegments: "1",
  });
  const replies = result.verbs.filter((v) => v.name === "Message").map((v) => v.children.find((c) => c.name === "Body")?.text ?? v.text);
  return { messageSid, replies, ms: result.ms };
}
