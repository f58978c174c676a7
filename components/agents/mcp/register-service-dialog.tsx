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
import { registerServiceInput } from "@/lib/agents/mcp/schema";
import { useRegisterService } from "./use-mcp";

type Draft = { name: string; version: string; description: string; endpoint: string; methods: string; organizationId: string; metadata: string };
const emptyDraft: Draft = { name: "", version: "1.0.0", description: "", endpoint: "", methods: "", organizationId: "0", metadata: "{}" };
type Errors = Partial<Record<keyof Draft, string>>;

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * Register Service (advanced §5): name, version, description, endpoint and methods are required;
 * methods are comma-separated; metadata must be a JSON object (default {}); organizationId is the
 * caller's own unless a master admin picks another. Invalid metadata JSON stops the submit.
 */
export function RegisterServiceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" data-testid="mcp-register-dialog">
        <DialogHeader>
          <DialogTitle>Register Service</DialogTitle>
          <DialogDescription>
            Add an MCP server (Streamable HTTP). Switchboard connects to it, lists its tools and checks its health every minute; the
            assistant can use the tools of healthy, active services.
          </DialogDescription>
        </DialogHeader>
        {/* The form mounts with the dialog, so every opening starts from an empty draft. */}
        <RegisterServiceForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function RegisterServiceForm({ onDone }: { onDone: () => void }) {
  const [draft, setDraft] = React.useState<Draft>(emptyDraft);
  const [errors, setErrors] = React.useState<Errors>({});
  const register = useRegisterService();

  const set = (field: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.target.value;
    setDraft((d) => ({ ...d, [field]: value }));
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const metadata = parseJsonObject(draft.metadata);
    if (metadata === null) {
      setErrors({ metadata: "Metadata must be a JSON object, e.g. {\"team\": \"front desk\"}" });
      return;
    }
    const body = { ...draft, metadata, organizationId: draft.organizationId === "0" ? 0 : draft.organizationId };
    const parsed = registerServiceInput.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Draft] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    register.mutate(
      { ...parsed.data, organizationId: body.organizationId },
      {
        onSuccess: onDone,
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (fields) setErrors(fields as Errors);
        },
      },
    );
  };

  const input = (field: keyof Draft, props: React.ComponentProps<typeof Input> = {}) => (
    <Input
      id={`mcp-${field}`}
      value={draft[field]}
      onChange={set(field)}
      aria-invalid={errors[field] ? true : undefined}
      aria-describedby={errors[field] ? `mcp-${field}-error` : undefined}
      data-testid={`mcp-register-${field}`}
      {...props}
    />
  );

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <Field id="mcp-name" label="Name" error={errors.name}>
          {input("name", { placeholder: "Inventory", autoComplete: "off" })}
        </Field>
        <Field id="mcp-version" label="Version" error={errors.version}>
          {input("version")}
        </Field>
      </div>
      <Field id="mcp-description" label="Description" error={errors.description}>
        <Textarea
          id="mcp-description"
          rows={2}
          value={draft.description}
          onChange={set("description")}
          aria-invalid={errors.description ? true : undefined}
          data-testid="mcp-register-description"
        />
      </Field>
      <Field id="mcp-endpoint" label="Endpoint" error={errors.endpoint} hint="The server's MCP URL, e.g. https://tools.example.com/mcp">
        {input("endpoint", { type: "url", placeholder: "https://tools.example.com/mcp", inputMode: "url" })}
      </Field>
      <Field id="mcp-methods" label="Methods" error={errors.methods} hint="The tools you expect it to offer, separated by commas">
        {input("methods", { placeholder: "check_stock, reserve_item" })}
      </Field>
      <OrganizationField id="mcp-register-organization" value={draft.organizationId} onChange={(value) => setDraft((d) => ({ ...d, organizationId: value }))} />
      <Field id="mcp-metadata" label="Metadata (JSON)" error={errors.metadata}>
        <Textarea
          id="mcp-metadata"
          rows={3}
          className="font-mono text-xs"
          value={draft.metadata}
          onChange={set("metadata")}
          aria-invalid={errors.metadata ? true : undefined}
          data-testid="mcp-register-metadata"
        />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={register.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={register.isPending} data-testid="mcp-register-submit">
          {register.isPending ? <Spinner /> : null}
          Register Service
        </Button>
      </DialogFooter>
    </form>
  );
}
