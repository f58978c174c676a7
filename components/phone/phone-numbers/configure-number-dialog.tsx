"use client";

import * as React from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { serverMessage } from "@/lib/platform/api-client";
import { formatForDisplay } from "@/lib/phone/numbers/forward-to";
import { describeBusinessHours } from "@/lib/phone/numbers/hours";
import { updatePhoneNumberInput } from "@/lib/phone/numbers/schema";
import { BusinessHoursSummary } from "@/components/knowledge/business/business-hours-summary";
import { formatPhoneNumber } from "./format";
import { RoutingRulesEditor, ruleToBody, type RuleDraft } from "./routing-rules-editor";
import { useUpdatePhoneNumber, type PhoneNumber } from "./use-phone-numbers";

type RoutingState = {
  forwardTo: string;
  streaming: boolean;
  mode: "assistant_first" | "ring_first";
  ringTimeoutSeconds: string;
  rules: RuleDraft[];
};

function initialState(number: PhoneNumber): RoutingState {
  const routing = number.routing;
  return {
    forwardTo: number.forwardTo ? formatForDisplay(number.forwardTo) : "",
    streaming: number.streaming,
    mode: routing.mode,
    ringTimeoutSeconds: String(routing.ringTimeoutSeconds),
    rules: routing.rules.map((r) => ({ condition: r.condition, action: r.action, to: r.to ?? "", numbers: (r.numbers ?? []).join(", "), intent: r.intent ?? "sales" })),
  };
}

/** Configure: routing for the number — where to forward calls and the rules; the hours are read from the Business page. */
export function ConfigureNumberDialog({
  number,
  open,
  onOpenChange,
}: {
  number: PhoneNumber;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto" data-testid="configure-number-dialog">
        <DialogHeader>
          <DialogTitle>Configure {formatPhoneNumber(number.phoneNumber)}</DialogTitle>
          <DialogDescription>How calls to {number.friendlyName} are routed.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from the saved routing. */}
        <RoutingForm number={number} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function RoutingForm({ number, onDone }: { number: PhoneNumber; onDone: () => void }) {
  const update = useUpdatePhoneNumber();
  const [state, setState] = React.useState<RoutingState>(() => initialState(number));
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const ownHours = describeBusinessHours(number.businessHours);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = {
      forwardTo: state.forwardTo.trim() === "" ? null : state.forwardTo.trim(),
      streaming: state.streaming,
      routing: { mode: state.mode, ringTimeoutSeconds: state.ringTimeoutSeconds, rules: state.rules.map(ruleToBody) },
    };
    // The route's own schema, so the form shows the same messages the server would send.
    const parsed = updatePhoneNumberInput.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.join(".")] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    update.mutate(
      { id: number.id, ...parsed.data },
      {
        onSuccess: () => {
          toast.success("Phone number updated", { description: "Routing saved." });
          onDone();
        },
        onError: (error) => {
          toast.error("Error", { description: serverMessage(error) ?? "Failed to update phone number" });
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Label htmlFor="configure-forward-to">Forward calls to</Label>
        <Input
          id="configure-forward-to"
          type="tel"
          placeholder="(512) 555-1234"
          value={state.forwardTo}
          onChange={(e) => setState((s) => ({ ...s, forwardTo: e.target.value }))}
          aria-invalid={errors.forwardTo ? true : undefined}
          aria-describedby={errors.forwardTo ? "configure-forward-to-error" : "configure-forward-to-hint"}
          data-testid="configure-forward-to"
        />
        <p id="configure-forward-to-hint" className="text-xs text-muted-foreground">
          A person to hand calls to, written any usual way, e.g. (512) 555-1234 or +44 20 7946 0958. Leave empty to let the assistant handle every call.
        </p>
        <FieldError id="configure-forward-to-error" message={errors.forwardTo} />
      </div>

      <section aria-labelledby="configure-routing-title" className="flex flex-col gap-4 rounded-lg border border-border p-4">
        <div className="flex flex-col gap-1">
          <h3 id="configure-routing-title" className="text-sm font-medium">
            Call routing
          </h3>
          <p className="text-xs text-muted-foreground">
            Rules are checked in order; the first that matches decides. A transfer nobody answers comes back to the assistant, which takes a
            message. Each call&apos;s record says why it went where it went.
          </p>
        </div>
        <div className="flex flex-wrap gap-4">
          <div className="flex min-w-56 flex-1 flex-col gap-2">
            <Label htmlFor="configure-mode">When no rule matches</Label>
            <Select
              id="configure-mode"
              value={state.mode}
              onChange={(e) => setState((s) => ({ ...s, mode: e.target.value as RoutingState["mode"] }))}
              aria-invalid={errors["routing.mode"] ? true : undefined}
              data-testid="configure-mode"
            >
              <option value="assistant_first">Assistant first, transfer on request</option>
              <option value="ring_first">Ring the forward-to number first, then the assistant</option>
            </Select>
            <FieldError id="configure-mode-error" message={errors["routing.mode"]} />
          </div>
          {state.mode === "ring_first" ? (
            <div className="flex w-40 flex-col gap-2">
              <Label htmlFor="configure-ring-timeout">Ring for (seconds)</Label>
              <Input
                id="configure-ring-timeout"
                type="number"
                min={5}
                max={60}
                value={state.ringTimeoutSeconds}
                onChange={(e) => setState((s) => ({ ...s, ringTimeoutSeconds: e.target.value }))}
                aria-invalid={errors["routing.ringTimeoutSeconds"] ? true : undefined}
                data-testid="configure-ring-timeout"
              />
              <FieldError id="configure-ring-timeout-error" message={errors["routing.ringTimeoutSeconds"]} />
            </div>
          ) : null}
        </div>
        <RoutingRulesEditor rules={state.rules} onChange={(rules) => setState((s) => ({ ...s, rules }))} errors={errors} />
      </section>

      <div className="flex items-center justify-between gap-4 rounded-lg border border-border p-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="configure-streaming">Low-latency streaming</Label>
          <p className="text-xs text-muted-foreground">
            Callers hear the assistant sooner and can interrupt it. Twilio numbers only; off, the assistant answers turn by turn.
          </p>
          <details className="text-xs text-muted-foreground">
            <summary className="cursor-pointer hover:text-foreground">Details</summary>
            <p className="mt-1">On: Twilio&apos;s ConversationRelay streams the words through Switchboard&apos;s WebSocket gateway. Off: the turn-by-turn webhook loop, which runs on any host.</p>
          </details>
        </div>
        <Switch
          id="configure-streaming"
          checked={state.streaming}
          onCheckedChange={(checked) => setState((s) => ({ ...s, streaming: checked }))}
          data-testid="configure-streaming"
        />
      </div>

      <section aria-labelledby="configure-hours-title" className="flex flex-col gap-2 rounded-lg border border-border p-4">
        <h3 id="configure-hours-title" className="text-sm font-medium">
          Business hours
        </h3>
        <p className="text-xs text-muted-foreground">This number follows the hours on your Business page (after-hours rules and the assistant use them).</p>
        <BusinessHoursSummary
          ownHoursNote={
            ownHours ? `No hours on the Business page yet; this number still uses its own: ${ownHours}.` : null
          }
        />
      </section>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending} data-testid="configure-submit">
          {update.isPending ? <Spinner /> : null}
          {update.isPending ? "Saving..." : "Save routing"}
        </Button>
      </DialogFooter>
    </form>
  );
}
