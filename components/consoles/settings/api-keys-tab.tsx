"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, RotateCw, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { apiKeyProviderInfo, apiKeyProviders, apiKeysInput, type ApiKeyProvider, type ApiKeysInput } from "@/lib/workspace/settings/schema";
import { serverFieldErrors } from "@/components/platform/server-errors";

type Source = "organization" | "environment" | "offline";
interface KeyStatus {
  set: boolean;
  hint: string | null;
  updatedAt: string | null;
  source: Source;
  verification: { status: "verified" | "offline" | "refused"; message: string | null; checkedAt: string | null } | null;
}
interface ApiKeysStatus {
  anthropic: KeyStatus;
  elevenlabs: KeyStatus;
  deepgram: KeyStatus;
  twilio: KeyStatus & { accountSidHint: string | null };
}

/** The provider's answer when the key was saved: "Verified", "Not verified (offline)", or its refusal. */
function VerificationBadge({ vendor, verification, provider }: { vendor: string; verification: NonNullable<KeyStatus["verification"]>; provider: string }) {
  const testId = `api-key-${provider}-verification`;
  if (verification.status === "verified") return <Badge variant="success" data-testid={testId}>Verified</Badge>;
  if (verification.status === "refused") {
    return (
      <Badge variant="destructive" data-testid={testId} className="whitespace-normal">
        {vendor} refused this key: {verification.message}
      </Badge>
    );
  }
  return (
    <Badge variant="secondary" title={verification.message ?? "No connection to the provider when the key was saved"} data-testid={testId}>
      Not verified (offline)
    </Badge>
  );
}

const API_KEYS_QUERY_KEY = ["/api/settings/api-keys"] as const;

const sourceLabels: Record<Source, { text: string; variant: "success" | "default" | "secondary"; help: string }> = {
  organization: { text: "your key", variant: "success", help: "Calls use the key saved here." },
  environment: { text: "server key", variant: "default", help: "Calls use the key configured on the server." },
  offline: { text: "built-in", variant: "secondary", help: "No key anywhere: Switchboard's built-in provider answers (it works offline)." },
};

/** The draft values of the form: one per input; empty means "leave as it is". */
type Draft = { anthropic: string; elevenlabs: string; deepgram: string; accountSid: string; authToken: string };
const emptyDraft: Draft = { anthropic: "", elevenlabs: "", deepgram: "", accountSid: "", authToken: "" };

const fieldFor: Record<string, keyof Draft> = {
  anthropic: "anthropic",
  elevenlabs: "elevenlabs",
  deepgram: "deepgram",
  twilio: "accountSid",
  "twilio.accountSid": "accountSid",
  "twilio.authToken": "authToken",
};

function bodyFrom(draft: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const provider of ["anthropic", "elevenlabs", "deepgram"] as const) {
    if (draft[provider].trim()) body[provider] = draft[provider];
  }
  if (draft.accountSid.trim() || draft.authToken.trim()) body.twilio = { accountSid: draft.accountSid, authToken: draft.authToken };
  return body;
}

function errorsByField(errors: Record<string, string>): Partial<Record<keyof Draft | "body", string>> {
  const out: Partial<Record<keyof Draft | "body", string>> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = fieldFor[path] ?? "body";
    out[field] ??= message;
  }
  return out;
}

/** Settings → API Keys: the organization's provider credentials, shown only as "…1234". */
export function ApiKeysTab() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const status = useQuery<ApiKeysStatus>({ queryKey: API_KEYS_QUERY_KEY });
  const [draft, setDraft] = React.useState<Draft>(emptyDraft);
  const [replacing, setReplacing] = React.useState<Partial<Record<ApiKeyProvider, boolean>>>({});
  const [errors, setErrors] = React.useState<Partial<Record<keyof Draft | "body", string>>>({});
  const [removing, setRemoving] = React.useState<ApiKeyProvider | null>(null);

  const save = useMutation<ApiKeysStatus, Error, ApiKeysInput>({
    mutationFn: async (body) => (await apiRequest("PUT", "/api/settings/api-keys", body)).json(),
    onSuccess: (saved) => {
      queryClient.setQueryData(API_KEYS_QUERY_KEY, saved);
      setDraft(emptyDraft);
      setReplacing({});
      setErrors({});
      toast.success("API keys saved", { description: "Your keys are stored encrypted and never shown again." });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      const fields = serverFieldErrors(error);
      if (fields) setErrors(errorsByField(fields));
      toast.error("Failed to save API keys", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  const remove = useMutation<void, Error, ApiKeyProvider>({
    mutationFn: async (provider) => {
      await apiRequest("DELETE", `/api/settings/api-keys/${provider}`);
    },
    onSuccess: async (_data, provider) => {
      toast.success(`${apiKeyProviderInfo[provider].vendor} key removed`);
      await queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Failed to remove API key", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = apiKeysInput.safeParse(bodyFrom(draft));
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[issue.path.join(".") || "body"] ??= issue.message;
      setErrors(errorsByField(fields));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  const update = (field: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setDraft((d) => ({ ...d, [field]: value }));
  };

  if (user && !user.permissions.includes("settings.write")) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>API Keys</CardTitle>
          <CardDescription>Only members who can manage settings can see and change the organization&apos;s keys.</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>API Keys</CardTitle>
        <CardDescription>
          Your organization&apos;s own provider keys. They are encrypted at rest and never shown again: only their last four
          characters. Without a key, Switchboard uses the server&apos;s key or its own built-in provider.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {status.isLoading ? (
          <div className="flex flex-col gap-4">
            {apiKeyProviders.map((p) => (
              <Skeleton key={p} className="h-20" />
            ))}
          </div>
        ) : status.isError || !status.data ? (
          <div role="alert" className="flex items-center justify-between gap-3 text-sm">
            <span>We couldn&apos;t load your API keys.</span>
            <Button size="sm" variant="outline" onClick={() => void status.refetch()}>
              <RotateCw aria-hidden />
              Try again
            </Button>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6" data-testid="api-keys-form">
            {apiKeyProviders.map((provider) => {
              const info = apiKeyProviderInfo[provider];
              const current = status.data[provider];
              const source = sourceLabels[current.source];
              const showInputs = !current.set || replacing[provider];
              const unreadable = current.set && current.source !== "organization";
              return (
                <section
                  key={provider}
                  className="flex flex-col gap-3 rounded-lg border border-border p-4"
                  data-testid={`api-key-${provider}`}
                >
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="flex flex-col gap-1">
                      <h3 className="flex items-center gap-2 text-sm font-medium">
                        <KeyRound className="size-4 text-muted-foreground" aria-hidden />
                        {info.kind} <span className="text-muted-foreground">({info.vendor})</span>
                      </h3>
                      <p className="text-sm text-muted-foreground" data-testid={`api-key-${provider}-status`}>
                        {current.set ? `Set, ending in ${current.hint ?? "…"}` : "Not set"}
                        {provider === "twilio" && current.set && status.data.twilio.accountSidHint
                          ? ` (account SID ${status.data.twilio.accountSidHint})`
                          : ""}
                      </p>
                    </div>
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={source.variant} title={source.help} data-testid={`api-key-${provider}-source`}>
                        In use: {source.text}
                      </Badge>
                      {current.verification ? <VerificationBadge vendor={info.vendor} verification={current.verification} provider={provider} /> : null}
                    </div>
                  </div>
                  {unreadable ? (
                    <p role="status" className="text-xs text-warning">
                      The saved key can no longer be read (the server&apos;s secret changed). Enter it again.
                    </p>
                  ) : null}
                  {current.set ? (
                    <div className="flex flex-wrap gap-2">
                      <Button
                        type="button"
                        size="sm"
                        variant="outline"
                        onClick={() => setReplacing((r) => ({ ...r, [provider]: !r[provider] }))}
                        data-testid={`api-key-${provider}-replace`}
                      >
                        {replacing[provider] ? "Cancel" : "Replace"}
                      </Button>
                      <Button
                        type="button"
                        size="sm"
                        variant="ghost"
                        className="text-destructive hover:text-destructive"
                        onClick={() => setRemoving(provider)}
                        data-testid={`api-key-${provider}-remove`}
                      >
                        <Trash2 aria-hidden />
                        Remove
                      </Button>
                    </div>
                  ) : null}
                  {showInputs ? (
                    provider === "twilio" ? (
                      <div className="grid gap-4 sm:grid-cols-2">
                        <KeyInput
                          id="api-key-twilio-sid"
                          label="Account SID"
                          placeholder="AC…"
                          value={draft.accountSid}
                          onChange={update("accountSid")}
                          error={errors.accountSid}
                        />
                        <KeyInput
                          id="api-key-twilio-token"
                          label="Auth token"
                          value={draft.authToken}
                          onChange={update("authToken")}
                          error={errors.authToken}
                        />
                      </div>
                    ) : (
                      <KeyInput
                        id={`api-key-${provider}-input`}
                        label={`${info.vendor} API key`}
                        value={draft[provider]}
                        onChange={update(provider)}
                        error={errors[provider]}
                      />
                    )
                  ) : null}
                </section>
              );
            })}
            <FieldError id="api-keys-error" message={errors.body} />
            <div>
              <Button type="submit" disabled={save.isPending} data-testid="api-keys-save">
                {save.isPending ? <Spinner /> : null}
                {save.isPending ? "Saving..." : "Save API Keys"}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={removing ? `Remove the ${apiKeyProviderInfo[removing].vendor} key?` : "Remove key?"}
        description="Calls will use the server's key if there is one, otherwise Switchboard's built-in provider."
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (removing) remove.mutate(removing);
        }}
      />
    </Card>
  );
}

interface KeyInputProps {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  error?: string;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
}

function KeyInput({ id, label, value, placeholder, error, onChange }: KeyInputProps) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        data-testid={id}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
