"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, KeySquare, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { timeAgo } from "@/components/agents/agent-consoles/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { createAccessTokenInput } from "@/lib/identity/access-tokens/schema";
import { accessTokenScopes, type AccessTokenScope } from "@/lib/identity/access-tokens/scopes";
import type { AccessTokenDto } from "@/lib/identity/access-tokens/service";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { serverFieldErrors } from "@/components/platform/server-errors";

const TOKENS_KEY = ["/api/settings/access-tokens"] as const;

type Created = AccessTokenDto & { token: string };

function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const [copied, setCopied] = React.useState(false);
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          toast.error("Could not copy", { description: "Select the text and copy it yourself." });
        }
      }}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      {copied ? "Copied" : label}
    </Button>
  );
}

/** The token, shown once right after it is created, with how to use it. */
function NewToken({ created, onDone }: { created: Created; onDone: () => void }) {
  const endpoint = `${typeof window === "undefined" ? "" : window.location.origin}/api/mcp/server`;
  const config = JSON.stringify(
    { mcpServers: { switchboard: { command: "npx", args: ["-y", "mcp-remote", endpoint, "--header", `Authorization: Bearer ${created.token}`] } } },
    null,
    2,
  );
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-success/40 bg-success/5 p-4" data-testid="access-token-created">
      <p className="text-sm font-medium">Copy the token now: it will not be shown again.</p>
      <code className="rounded-md bg-muted px-3 py-2 font-mono text-xs break-all" data-testid="access-token-value">
        {created.token}
      </code>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={created.token} label="Copy token" testId="access-token-copy" />
        <CopyButton text={config} label="Copy Claude Desktop config" />
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        MCP endpoint: <span className="font-mono">{endpoint}</span> — send the token as <span className="font-mono">Authorization: Bearer …</span>.
      </p>
    </div>
  );
}

/**
 * Settings → API Keys → Access tokens: the organization's tokens for Switchboard's MCP server.
 * Each has scopes (what its clients may do); the secret is shown once; revoking takes effect at once.
 */
export function AccessTokensCard() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const allowed = Boolean(user?.permissions.includes("settings.write"));
  const tokens = useQuery<AccessTokenDto[]>({ queryKey: TOKENS_KEY, enabled: allowed });
  const [name, setName] = React.useState("");
  const [scopes, setScopes] = React.useState<AccessTokenScope[]>(["calls:read"]);
  const [errors, setErrors] = React.useState<{ name?: string; scopes?: string }>({});
  const [created, setCreated] = React.useState<Created | null>(null);
  const [revoking, setRevoking] = React.useState<AccessTokenDto | null>(null);

  const create = useMutation<Created, Error, { name: string; scopes: AccessTokenScope[] }>({
    mutationFn: async (body) => (await apiRequest("POST", "/api/settings/access-tokens", body)).json(),
    onSuccess: async (token) => {
      setCreated(token);
      setName("");
      toast.success("Access token created", { description: `${token.name} can now connect to Switchboard's MCP server.` });
      await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      const fields = serverFieldErrors(error);
      if (fields) setErrors({ name: fields.name, scopes: fields.scopes });
      toast.error("Failed to create the access token", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  const revoke = useMutation<void, Error, AccessTokenDto>({
    mutationFn: async (token) => {
      await apiRequest("DELETE", `/api/settings/access-tokens/${token.id}`);
    },
    onSuccess: async (_d, token) => {
      toast.success("Access token revoked", { description: `${token.name} can no longer connect.` });
      await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Failed to revoke the access token", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  if (!allowed) return null;

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createAccessTokenInput.safeParse({ name, scopes });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as "name" | "scopes"] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  };

  const toggle = (scope: AccessTokenScope) => setScopes((list) => (list.includes(scope) ? list.filter((s) => s !== scope) : [...list, scope]));

  return (
    <Card data-testid="access-tokens">
      <CardHeader>
        <CardTitle>Access tokens</CardTitle>
        <CardDescription>
          Let MCP clients such as Claude Desktop use your calls, texts and figures through Switchboard&apos;s MCP server. A token only does what its
          scopes allow, and can be revoked at any time.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}

        {tokens.isLoading ? (
          <Skeleton className="h-16" />
        ) : (tokens.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="access-tokens-empty">
            No access tokens yet.
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {(tokens.data ?? []).map((token) => (
              <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3" data-testid="access-token-row">
                <div className="flex min-w-0 flex-col gap-1">
                  <span className="flex items-center gap-2 text-sm font-medium">
                    <KeySquare className="size-4 text-muted-foreground" aria-hidden />
                    {token.name}
                    <span className="font-mono text-xs text-muted-foreground">{token.prefix}…</span>
                  </span>
                  <div className="flex flex-wrap gap-1">
                    {token.scopes.map((scope) => (
                      <Badge key={scope} variant="outline">
                        {scope}
                      </Badge>
                    ))}
                  </div>
                  <span className="text-xs text-muted-foreground">
                    Created {timeAgo(token.createdAt)} · last used {timeAgo(token.lastUsedAt)}
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-destructive hover:text-destructive"
                  onClick={() => setRevoking(token)}
                  data-testid="access-token-revoke"
                >
                  <Trash2 aria-hidden />
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}

        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 rounded-lg border border-border p-4" data-testid="access-token-form">
          <div className="flex flex-col gap-2">
            <Label htmlFor="access-token-name">New token name</Label>
            <Input
              id="access-token-name"
              value={name}
              placeholder="Claude Desktop on my laptop"
              onChange={(e) => setName(e.target.value)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "access-token-name-error" : undefined}
              data-testid="access-token-name"
            />
            <FieldError id="access-token-name-error" message={errors.name} />
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Scopes</legend>
            {accessTokenScopes
              .filter((scope) => user?.permissions.includes(scope.permission))
              .map((scope) => (
                <label key={scope.id} className="flex items-start gap-3 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 accent-primary"
                    checked={scopes.includes(scope.id)}
                    onChange={() => toggle(scope.id)}
                    data-testid={`access-token-scope-${scope.id}`}
                  />
                  <span>
                    <span className="font-medium">{scope.label}</span> <span className="font-mono text-xs text-muted-foreground">{scope.id}</span>
                    <span className="block text-xs text-muted-foreground">{scope.description}</span>
                  </span>
                </label>
              ))}
            <FieldError id="access-token-scopes-error" message={errors.scopes} />
          </fieldset>
          <Button type="submit" className="w-fit" disabled={create.isPending} data-testid="access-token-create">
            {create.isPending ? <Spinner /> : null}
            Create access token
          </Button>
        </form>
      </CardContent>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this access token?"
        description={`Clients using ${revoking?.name ?? "it"} will be refused from their next request.`}
        confirmLabel="Revoke"
        destructive
        pending={revoke.isPending}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking, { onSettled: () => setRevoking(null) });
        }}
      />
    </Card>
  );
}
