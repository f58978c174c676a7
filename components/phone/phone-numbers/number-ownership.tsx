"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, PhoneCall, ShieldAlert, ShieldCheck } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import { dialCode, forwardingCarriers } from "@/lib/phone/numbers/forwarding-steps";
import { formatPhoneNumber } from "./format";
import { PHONE_NUMBERS_QUERY_KEY, usePhoneNumbers, type PhoneNumber } from "./use-phone-numbers";

/** How long the card waits for the test call to arrive (the server's window is the same minute). */
const TEST_WINDOW_MS = 60_000;
const POLL_MS = 2_000;

function useNumberAction<T>(path: (id: string) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body?: unknown }) => (await (await apiRequest("POST", path(id), body)).json()) as T,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PHONE_NUMBERS_QUERY_KEY }),
    onError: (error) => toast.error(serverMessage(error) ?? "That did not work. Try again."),
  });
}

/**
 * A brought-in number on its card (issue 30): proof that the owner controls it (a verification call
 * with a code), then the forwarding steps for the owner's carrier and a "Test forwarding" button.
 */
export function NumberOwnership({ number }: { number: PhoneNumber }) {
  const { status, code } = number.ownership;
  const formatted = formatPhoneNumber(number.phoneNumber);
  const callAgain = useNumberAction<{ status: string; code: string }>((id) => `/api/phone-numbers/${encodeURIComponent(id)}/ownership`);
  const keyIn = useNumberAction<{ status: string }>((id) => `/api/phone-numbers/${encodeURIComponent(id)}/ownership/answer`);
  const [digits, setDigits] = React.useState("");

  if (status === "not_needed") return null;
  if (status === "verified") return <ForwardingSection number={number} />;
  return (
    <section className="flex flex-col gap-2 rounded-md border border-warning/50 bg-warning/10 p-3" aria-label="Verify this number" data-testid="number-ownership">
      <p className="flex items-center gap-2 font-medium">
        <ShieldAlert className="size-4 shrink-0" aria-hidden />
        {status === "pending" ? "Not verified yet" : "Verification failed"}
      </p>
      {status === "pending" && code ? (
        <p>
          We are calling {formatted}. Answer, and key in <strong className="font-mono text-base tracking-widest" data-testid="number-ownership-code">{code}</strong> on the keypad. Calls are not forwarded
          to your assistant until this number is verified.
        </p>
      ) : (
        <p>The code was not keyed in. Call again and key in the new code when the phone rings.</p>
      )}
      {status === "pending" && number.provider === "simulated" ? (
        // The simulated carrier has no real phone to ring: its handset is here.
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            keyIn.mutate(
              { id: number.id, body: { digits } },
              { onSuccess: (answer) => (answer.status === "verified" ? toast.success(`${formatted} is verified`) : toast.error("That code did not match. Call again for a new one.")) },
            );
          }}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor={`keypad-${number.id}`}>Practice phone: keypad</Label>
            <Input id={`keypad-${number.id}`} inputMode="numeric" autoComplete="one-time-code" value={digits} onChange={(e) => setDigits(e.target.value)} className="w-36" />
          </div>
          <Button size="sm" type="submit" disabled={keyIn.isPending || !digits}>
            Key in the code
          </Button>
        </form>
      ) : null}
      <div>
        <Button size="sm" variant="outline" disabled={callAgain.isPending} onClick={() => callAgain.mutate({ id: number.id })} data-testid="number-ownership-call-again">
          <PhoneCall aria-hidden />
          Call me again
        </Button>
      </div>
    </section>
  );
}

function ForwardingSection({ number }: { number: PhoneNumber }) {
  const numbers = usePhoneNumbers();
  const queryClient = useQueryClient();
  const start = useNumberAction<{ at: string }>((id) => `/api/phone-numbers/${encodeURIComponent(id)}/forwarding-test`);
  const [waitingSince, setWaitingSince] = React.useState<number | null>(null);
  const [carrier, setCarrier] = React.useState<string>("att");
  const destination = numbers.data?.find((n) => n.ownership.status === "not_needed")?.phoneNumber ?? null;
  const test = number.forwardingTest;
  const arrived = Boolean(test?.arrived);

  // Waiting while the test started by this click (its `at`) has not arrived; the timer ends the wait after the window.
  const waiting = waitingSince !== null && !(test && Date.parse(test.at) === waitingSince && arrived);
  React.useEffect(() => {
    if (!waiting || waitingSince === null) return;
    const timer = window.setInterval(() => {
      if (Date.now() - waitingSince > TEST_WINDOW_MS) setWaitingSince(null);
      else void queryClient.invalidateQueries({ queryKey: PHONE_NUMBERS_QUERY_KEY });
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, waitingSince, queryClient]);

  const chosen = forwardingCarriers.find((c) => c.id === carrier) ?? forwardingCarriers[0];
  const result =
    waiting
      ? "Calling your number… waiting for the call to reach Switchboard."
      : test
        ? arrived
          ? "The test call arrived: forwarding works."
          : "The test call did not arrive within a minute. Check the forwarding code below, then test again."
        : null;

  return (
    <section className="flex flex-col gap-2 rounded-md border border-border p-3" aria-label="Forwarding" data-testid="number-forwarding">
      <p className="flex items-center gap-2 font-medium text-success">
        <ShieldCheck className="size-4 shrink-0" aria-hidden />
        Verified: you control this number
      </p>
      <details>
        <summary className="cursor-pointer font-medium">Forwarding steps</summary>
        <div className="mt-2 flex flex-col gap-2">
          <p className="text-muted-foreground">
            {destination
              ? `Forward calls to your Switchboard number ${formatPhoneNumber(destination)}. On the phone that owns ${formatPhoneNumber(number.phoneNumber)}, dial:`
              : "Forward calls to a Switchboard number: get one first (Add Number), then dial on the phone that owns this number:"}
          </p>
          <Label htmlFor={`carrier-${number.id}`}>Your carrier</Label>
          <select
            id={`carrier-${number.id}`}
            value={carrier}
            onChange={(e) => setCarrier(e.target.value)}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm"
            data-testid="number-forwarding-carrier"
          >
            {forwardingCarriers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <dl className="grid grid-cols-1 gap-1 text-sm" data-testid="number-forwarding-codes">
            <dt className="font-medium">Conditional forwarding when busy or unanswered (recommended: your phone rings first)</dt>
            <dd className="font-mono break-all">{chosen.conditional.on.map((code) => dialCode(code, destination ?? "+1XXXXXXXXXX")).join("  then  ")}</dd>
            <dd className="text-xs text-muted-foreground">
              To stop: <span className="font-mono">{chosen.conditional.off}</span>. {chosen.conditional.note ? dialCode(chosen.conditional.note, destination ?? "+1XXXXXXXXXX") : ""}
            </dd>
            <dt className="mt-1 font-medium">Forward every call</dt>
            <dd className="font-mono break-all">{dialCode(chosen.all.on, destination ?? "+1XXXXXXXXXX")}</dd>
            <dd className="text-xs text-muted-foreground">
              To stop: <span className="font-mono">{chosen.all.off}</span>
            </dd>
          </dl>
        </div>
      </details>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={start.isPending || waiting}
          onClick={() => start.mutate({ id: number.id }, { onSuccess: (started) => setWaitingSince(Date.parse(started.at)) })}
          data-testid="number-forwarding-test"
        >
          {waiting ? <Spinner /> : <CheckCircle2 aria-hidden />}
          Test forwarding
        </Button>
      </div>
      {result ? (
        <p role="status" className="text-sm" data-testid="number-forwarding-result">
          {result}
        </p>
      ) : null}
    </section>
  );
}
