"use client";

import * as React from "react";
import Link from "next/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Bot, Clock, Cpu, Info, Mic, Pause, Play, Send, User } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import type { VoiceAssistant } from "@/components/agents/assistants/use-assistants";
import { apiRequest, errorStatus, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { plainProviderLabel, providerLabel } from "@/lib/phone/voice/labels";
import { quickPhrasesFor } from "@/lib/phone/voice/quick-phrases";
import { fullPageNavigate } from "@/lib/platform/utils";
import { formatMs, intentLabel, type VoiceTestResponse } from "./types";
import { useAudioPlayer } from "./use-audio-player";

/** The five quick phrases (core §2, §9) before the business profile has loaded; then quickPhrasesFor(profile). */
export const QUICK_PHRASES = [
  "Hello, I'd like to book an appointment",
  "What are your opening hours?",
  "How much does a cleaning cost?",
  "Can I speak to a person?",
  "I have a problem with my bill",
] as const;

/** Where a failed test sends the owner: out of credits → Billing; no assistant → Voice Assistants. */
function failureAction(status: number | string): { label: string; href: string } | null {
  if (status === 402) return { label: "Buy credits in Billing & Credits", href: "/billing" };
  if (status === 400 || status === 404 || status === 409) return { label: "Open Voice Assistants", href: "/voice-assistants" };
  return null;
}

function FailureNotice({ status, reason }: { status: number | string; reason: string | null }) {
  const action = failureAction(status);
  return (
    <div role="alert" className="flex flex-col gap-1 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm" data-testid="voice-test-error">
      <p className="font-medium">Voice Test Failed</p>
      <p>Test failed: {status}</p>
      {reason ? <p className="text-muted-foreground" data-testid="voice-test-error-reason">{reason}</p> : null}
      {action ? (
        <Link href={action.href} className="font-medium text-primary underline underline-offset-4" data-testid="voice-test-error-action">
          {action.label}
        </Link>
      ) : null}
    </div>
  );
}

function TimingRow({ label, value, hint }: { label: string; value: number | null | undefined; hint?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-border/60 py-1.5 last:border-0">
      <dt className="text-sm text-muted-foreground">
        {label}
        {hint ? <span className="ml-1 text-xs text-muted-foreground">({hint})</span> : null}
      </dt>
      <dd className="font-mono text-sm tabular-nums">{formatMs(value)}</dd>
    </div>
  );
}

/** /voice-test (core §2 Voice Test): type or pick a phrase, run the pipeline, read and hear the reply. */
export function VoiceTestScreen() {
  const [text, setText] = React.useState("");
  const [result, setResult] = React.useState<VoiceTestResponse | null>(null);
  const player = useAudioPlayer();
  // The test answers with the organization's first active assistant: without one, say where to make it.
  const assistants = useQuery<VoiceAssistant[]>({ queryKey: ["/api/voice-assistants"] });
  const noActiveAssistant = assistants.data !== undefined && !assistants.data.some((a) => a.isActive);
  // Phrases that fit this business (its services and questions), five as the spec asks.
  const profile = useQuery<{ name: string; services: { name: string; isActive?: boolean }[]; faqs: { question: string }[] }>({
    queryKey: ["/api/business-profile"],
  });
  const phrases = profile.data
    ? quickPhrasesFor({ businessName: profile.data.name, services: profile.data.services, faqs: profile.data.faqs })
    : QUICK_PHRASES;
  const [failure, setFailure] = React.useState<{ status: number | string; reason: string | null } | null>(null);

  const test = useMutation<VoiceTestResponse, Error, string>({
    mutationFn: async (testText) => (await apiRequest("POST", "/api/voice/test", { testText })).json(),
    onSuccess: (data) => {
      setFailure(null);
      setResult(data);
      toast.success("Voice Test Successful", { description: "AI response generated and audio created" });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return; // the query client shows "Session Expired"
      const status = errorStatus(error) ?? error.message;
      const reason = serverMessage(error) ?? null;
      setFailure({ status, reason });
      const action = failureAction(status);
      toast.error("Voice Test Failed", {
        description: `Test failed: ${status}`,
        ...(action ? { action: { label: action.label, onClick: () => fullPageNavigate(action.href) } } : {}),
      });
    },
  });

  const run = (value: string) => {
    if (!value.trim()) {
      toast.error("Input Required", { description: "Please enter some text to test the voice pipeline" });
      return;
    }
    if (test.isPending) return;
    player.stop();
    test.mutate(value.trim());
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    run(text);
  };

  const pickPhrase = (phrase: string) => {
    setText(phrase);
    run(phrase);
  };

  const playing = result !== null && player.playingUrl === result.audioUrl;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="voice-test">
      <div className="flex flex-col gap-2">
        <Badge variant="warning" className="w-fit" data-testid="voice-test-admin-label">
          Practice tool
        </Badge>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Voice Test</h1>
        <p className="text-muted-foreground">
          Run a phrase through the voice pipeline: your assistant writes a reply and the speech provider turns it into audio.
        </p>
      </div>

      {noActiveAssistant ? (
        <div
          className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-primary/10 p-4 sm:flex-row sm:items-center sm:justify-between"
          role="note"
          data-testid="voice-test-no-assistant"
        >
          <div className="flex gap-3">
            <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <div className="flex flex-col gap-1">
              <p className="font-medium">No active voice assistant yet</p>
              <p className="text-sm text-muted-foreground">
                The test answers with your first active assistant. Create one (or switch one on) in Voice Assistants, then come back here.
              </p>
            </div>
          </div>
          <Button asChild size="sm" className="w-fit shrink-0">
            <Link href="/voice-assistants">Create an assistant</Link>
          </Button>
        </div>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Mic className="size-4 text-primary" aria-hidden />
            Test input
          </CardTitle>
          <CardDescription>Type what a caller might say, then press Enter or Test Voice Pipeline.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex flex-1 flex-col gap-2">
              <Label htmlFor="voice-test-input">Text</Label>
              <Input
                id="voice-test-input"
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  // A disabled submit button blocks the browser's implicit submit: a blank Enter still asks for text.
                  if (e.key === "Enter" && !e.nativeEvent.isComposing && !text.trim()) {
                    e.preventDefault();
                    run(text);
                  }
                }}
                placeholder="e.g. What are your opening hours?"
                maxLength={1000}
                autoComplete="off"
                data-testid="voice-test-input"
              />
            </div>
            <Button type="submit" disabled={!text.trim() || test.isPending} data-testid="voice-test-submit">
              {test.isPending ? <Spinner /> : <Send aria-hidden />}
              Test Voice Pipeline
            </Button>
          </form>

          {failure ? <FailureNotice status={failure.status} reason={failure.reason} /> : null}

          <div className="flex flex-col gap-2">
            <span className="text-sm font-medium">Quick phrases</span>
            <div className="flex flex-wrap gap-2" data-testid="voice-test-quick-phrases">
              {phrases.map((phrase) => (
                <Button
                  key={phrase}
                  type="button"
                  variant="outline"
                  size="sm"
                  className="h-auto whitespace-normal py-1.5 text-left"
                  disabled={test.isPending}
                  onClick={() => pickPhrase(phrase)}
                >
                  {phrase}
                </Button>
              ))}
            </div>
          </div>
        </CardContent>
      </Card>

      <Card aria-live="polite" data-testid="voice-test-results">
        <CardHeader>
          <CardTitle>Results</CardTitle>
          <CardDescription>
            {result ? `Answered by ${result.assistant.name} · ${plainProviderLabel(result.providers)}` : "Run a test to see the reply, its intent and how long each stage took."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {test.isPending ? (
            <div className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
              <Spinner /> Processing…
            </div>
          ) : result ? (
            <div className="grid gap-6 md:grid-cols-[1fr_18rem]">
              <div className="flex flex-col gap-4">
                <div className="flex flex-col gap-1">
                  <span className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                    <User className="size-3.5" aria-hidden /> Input
                  </span>
                  <p data-testid="voice-test-result-input">{result.input}</p>
                </div>
                <div className="flex flex-col gap-1">
                  <span className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                    <Bot className="size-3.5" aria-hidden /> AI response
                  </span>
                  <p className="rounded-md bg-muted/40 p-3" data-testid="voice-test-result-response">
                    {result.aiResponse}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="secondary" data-testid="voice-test-result-intent">
                    Intent: {intentLabel(result.intent)}
                  </Badge>
                  <Badge variant="outline" data-testid="voice-test-result-providers">
                    <Cpu aria-hidden /> {plainProviderLabel(result.providers)}
                  </Badge>
                  <Badge variant="outline">
                    <Clock aria-hidden /> {new Date(result.timestamp).toLocaleTimeString()}
                  </Badge>
                </div>
                <div>
                  <Button
                    type="button"
                    variant={playing ? "secondary" : "default"}
                    onClick={() => (playing ? player.stop() : void player.play(result.audioUrl))}
                    data-testid="voice-test-play"
                    aria-pressed={playing}
                  >
                    {playing ? <Pause aria-hidden /> : <Play aria-hidden />}
                    {playing ? "Playing..." : "Play Audio"}
                  </Button>
                </div>
              </div>
              {result.decision?.note ? (
                <p className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm" data-testid="voice-test-decision">
                  {result.decision.note}
                  {result.decision.taskWritten ? (
                    <>
                      {" "}
                      <Link href="/tasks" className="text-primary underline underline-offset-4">
                        See Tasks
                      </Link>
                    </>
                  ) : null}
                </p>
              ) : null}
              {result.knowledgeGap ? (
                <p className="rounded-md border border-warning/40 bg-warning/5 px-3 py-2 text-sm" data-testid="voice-test-knowledge-gap">
                  Your business details don&apos;t answer this, so the assistant said so. It&apos;s listed under{" "}
                  <Link href="/settings/business#questions" className="text-primary underline underline-offset-4">
                    Business → Unanswered questions
                  </Link>{" "}
                  for you to answer once.
                </p>
              ) : null}
              <div className="flex flex-col gap-2 rounded-md border border-border p-3">
                <dl data-testid="voice-test-timings-plain">
                  <TimingRow label="A caller hears the reply after" value={result.timings.firstAudioByteMs} />
                  <TimingRow label="Whole reply ready in" value={result.timings.totalMs} />
                </dl>
                {/* Stage by stage, with the providers' names: for whoever tunes the setup, not every owner. */}
                <details className="text-sm" data-testid="voice-test-details">
                  <summary className="cursor-pointer text-muted-foreground hover:text-foreground">Details</summary>
                  <p className="mt-2 text-xs text-muted-foreground" data-testid="voice-test-result-providers-technical">
                    {providerLabel(result.providers)}
                  </p>
                  <dl className="mt-1" data-testid="voice-test-timings">
                    <TimingRow label="Model, first token" value={result.timings.llmFirstTokenMs} />
                    <TimingRow label="Model, total" value={result.timings.llmTotalMs} />
                    <TimingRow label="Speech, first byte" value={result.timings.ttsFirstByteMs} />
                    <TimingRow label="Speech, total" value={result.timings.ttsTotalMs} />
                    <TimingRow label="First audio" value={result.timings.firstAudioByteMs} hint="from start" />
                    <TimingRow label="Server total" value={result.timings.totalMs} />
                  </dl>
                </details>
              </div>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No test run yet.</p>
          )}
          {/* The one audio element of the page (hidden; Play Audio drives it). */}
          <audio {...player.audioProps} className="hidden" data-testid="voice-test-audio" />
        </CardContent>
      </Card>
    </div>
  );
}
