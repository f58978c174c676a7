"use client";

import * as React from "react";
import { OrganizationField } from "@/components/agents/agent-consoles/organization-field";
import { parseJsonObject } from "@/components/agents/agent-consoles/format";
import { serverFieldErrors } from "@/components/platform/server-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { createAgentInput } from "@/lib/agents/a2a/schema";
import { useCreateAgent } from "./use-a2a";

type Draft = { name: string; capabilities: string; endpoint: string; organizationId: string; metadata: string };
const emptyDraft: Draft = { name: "", capabilities: "", endpoint: "", organizationId: "0", metadata: "{}" };
type Errors = Partial<Record<keyof Draft, string>>;

/**
 * Create Agent (advanced §5): name and capabilities are required, capabilities comma-separated,
 * endpoint optional (its card at <endpoint>/.well-known/agent-card.json), metadata a JSON object.
 */
export function CreateAgentDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" data-testid="a2a-create-dialog">
        <DialogHeader>
          <DialogTitle>Create Agent</DialogTitle>
          <DialogDescription>
            Register another AI agent (A2A v1.0). With an endpoint, Switchboard reads its agent card every minute: it is online while the card
            is there and valid.
          </DialogDescription>
        </DialogHeader>
        <CreateAgentForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateAgentForm({ onDone }: { onDone: () => void }) {
  const [draft, setDraft] = React.useState<Draft>(emptyDraft);
  const [errors, setErrors] = React.useState<Errors>({});
  const create = useCreateAgent();

  const set = (field: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.target.value;
    setDraft((d) => ({ ...d, [field]: value }));
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const metadata = parseJsonObject(draft.metadata);
    if (metadata === null) {
      setErrors({ metadata: "Metadata must be a JSON object" });
      return;
    }
    const organizationId = draft.organizationId === "0" ? 0 : draft.organizationId;
    const parsed = createAgentInput.safeParse({ ...draft, metadata, organizationId });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Draft] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(
      { name: parsed.data.name, capabilities: parsed.data.capabilities, endpoint: parsed.data.endpoint, metadata: parsed.data.metadata, organizationId },
      {
        onSuccess: onDone,
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (fields) setErrors(fields as Errors);
        },
      },
    );
  };

  const field = (name: keyof Draft, label: string, props: React.ComponentProps<typeof Input> = {}, hint?: string) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`a2a-${name}`}>{label}</Label>
      <Input
        id={`a2a-${name}`}
        value={draft[name]}
        onChange={set(name)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `a2a-${name}-error` : undefined}
        data-testid={`a2a-create-${name}`}
        {...props}
      />
      {hint && !errors[name] ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldError id={`a2a-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {field("name", "Name", { placeholder: "Booking agent", autoComplete: "off" })}
      {field("capabilities", "Capabilities", { placeholder: "booking, availability" }, "Separated by commas")}
      {field("endpoint", "Endpoint (optional)", { type: "url", inputMode: "url", placeholder: "https://agent.example.com/a2a" }, "The agent's base URL; its card is at <endpoint>/.well-known/agent-card.json")}
      <OrganizationField id="a2a-create-organization" value={draft.organizationId} onChange={(value) => setDraft((d) => ({ ...d, organizationId: value }))} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="a2a-metadata">Metadata (JSON)</Label>
        <Textarea
          id="a2a-metadata"
          rows={3}
          className="font-mono text-xs"
          value={draft.metadata}
          onChange={set("metadata")}
          aria-invalid={errors.metadata ? true : undefined}
          data-testid="a2a-create-metadata"
        />
        <FieldError id="a2a-metadata-error" message={errors.metadata} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending} data-testid="a2a-create-submit">
          {create.isPending ? <Spinner /> : null}
          Create Agent
        </Button>
      </DialogFooter>
    </form>
  );
}
