"use client";

import * as React from "react";
import { parseJsonObject } from "@/components/agents/agent-consoles/format";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { DEFAULT_MESSAGE_PAYLOAD } from "@/lib/agents/a2a/schema";
import type { A2aAgentDto } from "@/lib/agents/a2a/service";
import { useSendMessage } from "./use-a2a";

const defaultPayload = JSON.stringify(DEFAULT_MESSAGE_PAYLOAD, null, 2);

/**
 * Send Message (advanced §5): a target among the online agents, Request or Notification, and a JSON
 * payload (default {"message": "Hello from another agent"}); invalid JSON stops the submit.
 */
export function SendMessageDialog({
  open,
  onOpenChange,
  agents,
  initialTargetId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  agents: A2aAgentDto[];
  initialTargetId: string | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg" data-testid="a2a-send-dialog">
        <DialogHeader>
          <DialogTitle>Send Message</DialogTitle>
          <DialogDescription>Delivered as an A2A SendMessage and retried if the agent does not answer. Its answer shows in the Monitor tab.</DialogDescription>
        </DialogHeader>
        <SendMessageForm key={initialTargetId ?? ""} agents={agents} initialTargetId={initialTargetId} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function SendMessageForm({ agents, initialTargetId, onDone }: { agents: A2aAgentDto[]; initialTargetId: string | null; onDone: () => void }) {
  const online = agents.filter((a) => a.isOnline);
  const [target, setTarget] = React.useState(initialTargetId ?? "");
  const [type, setType] = React.useState<"request" | "notify">("request");
  const [payload, setPayload] = React.useState(defaultPayload);
  const [errors, setErrors] = React.useState<{ target?: string; payload?: string }>({});
  const send = useSendMessage();

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseJsonObject(payload, { ...DEFAULT_MESSAGE_PAYLOAD });
    const next: typeof errors = {};
    if (!target) next.target = "Choose an online agent";
    if (parsed === null) next.payload = "The payload must be a JSON object";
    setErrors(next);
    if (next.target || next.payload || parsed === null) return;
    send.mutate({ targetAgentId: target, type, payload: parsed, organizationId: 0 }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <div className="flex flex-col gap-2">
        <Label htmlFor="a2a-send-target">Target agent</Label>
        <Select id="a2a-send-target" value={target} onChange={(e) => setTarget(e.target.value)} aria-invalid={errors.target ? true : undefined} data-testid="a2a-send-target">
          <option value="">{online.length ? "Choose an online agent" : "No agent is online"}</option>
          {online.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </Select>
        <FieldError id="a2a-send-target-error" message={errors.target} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="a2a-send-type">Type</Label>
        <Select id="a2a-send-type" value={type} onChange={(e) => setType(e.target.value as "request" | "notify")} data-testid="a2a-send-type">
          <option value="request">Request</option>
          <option value="notify">Notification</option>
        </Select>
        <p className="text-xs text-muted-foreground">A request waits for the agent&apos;s answer; a notification does not.</p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="a2a-send-payload">Payload (JSON)</Label>
        <Textarea
          id="a2a-send-payload"
          rows={5}
          className="font-mono text-xs"
          value={payload}
          onChange={(e) => setPayload(e.target.value)}
          aria-invalid={errors.payload ? true : undefined}
          data-testid="a2a-send-payload"
        />
        <FieldError id="a2a-send-payload-error" message={errors.payload} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={send.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={send.isPending} data-testid="a2a-send-submit">
          {send.isPending ? <Spinner /> : null}
          Send Message
        </Button>
      </DialogFooter>
    </form>
  );
}
