import "server-only";
import twilio from "twilio";
import { relayAttributes, type RelaySettings } from "./relay/settings";

/**
 * The TwiML Switchboard answers with, written through the `twilio` package's own builders so only
 * Twilio's verbs and attributes can appear. A prompt is either a clip the organization's speech
 * provider made (`<Play>` of a signed URL) or plain `<Say>` text (used when speech synthesis itself
 * is what failed).
 */
const { VoiceResponse, MessagingResponse } = twilio.twiml;

export type Prompt = { play: string } | { say: string };

/** How long Twilio waits for the caller to start speaking before the Gather ends empty. */
export const GATHER_TIMEOUT_SECONDS = 6;
/** How long the transferred-to phone rings before the assistant takes a message instead. */
export const DIAL_TIMEOUT_SECONDS = 20;
export const VOICEMAIL_MAX_SECONDS = 120;

type Container = { play(url: string): unknown; say(text: string): unknown };

function addPrompts(target: Container, prompts: Prompt[]) {
  for (const prompt of prompts) {
    if ("play" in prompt) target.play(prompt.play);
    else target.say(prompt.say);
  }
}

/**
 * Speak (barge-in allowed: the prompts are inside the Gather), then listen; silence calls the action
 * too. Keys count as well as speech (a number keyed in arrives as Digits, ended by #).
 * `before` plays first and outside the Gather, so speech cannot cut it short (the call's notice);
 * `recordingCallbackUrl` starts a whole-call recording after it (before it with `recordNotice`: Connecticut
 * and Washington want the notice to be part of the recording, Conn. Gen. Stat. § 52-570d(a)(2), RCW 9.73.030(3)).
 */
export function gatherTwiml(prompts: Prompt[], actionUrl: string, before: Prompt[] = [], recordingCallbackUrl?: string, recordNotice = false): string {
  const response = new VoiceResponse();
  // Records the whole call from here on, in the background (docs/compliance.md#recordings).
  const startRecording = () => {
    if (recordingCallbackUrl) response.start().recording({ recordingStatusCallback: recordingCallbackUrl, recordingStatusCallbackMethod: "POST", recordingStatusCallbackEvent: ["completed"], channels: "dual" });
  };
  if (recordNotice) startRecording();
  addPrompts(response as unknown as Container, before);
  if (!recordNotice) startRecording();
  const gather = response.gather({
    input: ["speech", "dtmf"],
    finishOnKey: "#",
    action: actionUrl,
    method: "POST",
    speechTimeout: "auto",
    timeout: GATHER_TIMEOUT_SECONDS,
    actionOnEmptyResult: true,
    language: "en-US",
  });
  addPrompts(gather as unknown as Container, prompts);
  return response.toString();
}

export function hangupTwiml(prompts: Prompt[]): string {
  const response = new VoiceResponse();
  addPrompts(response as unknown as Container, prompts);
  response.hangup();
  return response.toString();
}

export type DialOptions = {
  /** The number the person who answers sees: the caller's own number. */
  callerId: string;
  actionUrl: string;
  timeoutSeconds?: number;
  /** TwiML the answering person hears before the caller is connected (the one-sentence briefing). */
  whisperUrl?: string;
};

/** Rings `to` (DIAL_TIMEOUT_SECONDS unless told) showing the caller's number; the action hears how it went. */
export function dialTwiml(prompts: Prompt[], to: string, options: DialOptions): string {
  const response = new VoiceResponse();
  addPrompts(response as unknown as Container, prompts);
  const dial = response.dial({
    action: options.actionUrl,
    method: "POST",
    timeout: options.timeoutSeconds ?? DIAL_TIMEOUT_SECONDS,
    callerId: options.callerId,
    answerOnBridge: true,
  });
  dial.number(options.whisperUrl ? { url: options.whisperUrl, method: "POST" } : {}, to);
  return response.toString();
}

/** A caller turned away before the call is answered (block list, spam set to block): they hear it as busy. */
export function rejectTwiml(): string {
  const response = new VoiceResponse();
  response.reject({ reason: "busy" });
  return response.toString();
}

/** What the person answering a transfer hears first. */
export function whisperTwiml(text: string): string {
  const response = new VoiceResponse();
  response.say(text);
  return response.toString();
}

/**
 * A voicemail: the prompt, a beep, up to VOICEMAIL_MAX_SECONDS of the caller (ended by 5 s of
 * silence or #). The action answers once it is recorded; the recording status callback says when
 * the file is ready. An empty recording makes Twilio skip the action and go on to the next verbs.
 */
export function recordTwiml(prompts: Prompt[], actionUrl: string, recordingCallbackUrl: string): string {
  const response = new VoiceResponse();
  addPrompts(response as unknown as Container, prompts);
  response.record({
    action: actionUrl,
    method: "POST",
    maxLength: VOICEMAIL_MAX_SECONDS,
    timeout: 5,
    playBeep: true,
    finishOnKey: "#",
    recordingStatusCallback: recordingCallbackUrl,
    recordingStatusCallbackMethod: "POST",
    recordingStatusCallbackEvent: ["completed"],
  });
  response.say("No message was recorded. Goodbye.");
  response.hangup();
  return response.toString();
}

/** The streaming path: Twilio speaks and listens, our gateway streams the model's text over a WebSocket. */
export function relayTwiml(input: { url: string; actionUrl: string; welcomeGreeting: string; callId: string; before?: Prompt[]; relay?: RelaySettings | null }): string {
  const response = new VoiceResponse();
  addPrompts(response as unknown as Container, input.before ?? []);
  const connect = response.connect({ action: input.actionUrl, method: "POST" });
  const relay = connect.conversationRelay({
    url: input.url,
    welcomeGreeting: input.welcomeGreeting,
    // The assistant's interruption settings (interruptible, preemptible, backchannels).
    ...relayAttributes(input.relay),
    dtmfDetection: true,
    language: "en-US",
  });
  relay.parameter({ name: "callId", value: input.callId });
  return response.toString();
}

export function messageTwiml(body: string | null): string {
  const response = new MessagingResponse();
  if (body) response.message(body);
  return response.toString();
}

export function emptyVoiceTwiml(): string {
  return new VoiceResponse().toString();
}
