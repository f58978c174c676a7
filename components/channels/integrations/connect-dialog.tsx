"use client";

import * as React from "react";
import { Check, Copy, KeyRound } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import type { IntegrationView } from "@/lib/channels/integrations/catalogue";
import { fieldErrorsOf } from "@/components/platform/server-errors";
import { useAuthorize, useConnect } from "./api";

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      toast.success("Signing secret copied");
    } catch {
      toast.error("Could not copy", { description: "Select the secret and copy it by hand." });
    }
  };
  return (
    <div className="flex flex-col gap-4" data-testid="signing-secret">
      <div className="flex items-start gap-3 rounded-lg border border-warning/30 bg-warning/10 p-3 text-sm">
        <KeyRound className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
        <p>
          This is your signing secret. It is shown <strong>only once</strong>: store it where your endpoint can read it, and
          check the <code>X-Switchboard-Signature</code> header of every request with it.
        </p>
      </div>
      <div className="flex gap-2">
        <Input readOnly value={secret} aria-label="Signing secret" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} data-testid="signing-secret-value" />
        <Button variant="outline" onClick={() => void copy()} aria-label="Copy signing secret">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <DialogFooter>
        <Button onClick={onDone}>I&apos;ve saved it</Button>
      </DialogFooter>
    </div>
  );
}

/** Connect flow: asks for the URL where the integration needs one, then shows a signing secret once. */
export function ConnectDialog({
  integration,
  open,
  onOpenChange,
}: {
  integration: IntegrationView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const connect = useConnect(integration);
  const authorize = useAuthorize(integration);
  const [value, setValue] = React.useState("");
  const [secret, setSecret] = React.useState<string | null>(null);
  // Cards connected through the provider's own sign-in page (Slack also takes a pasted webhook URL).
  const oauthOnly = integration.kind === "oauth" || integration.kind === "calendar";
  const field = integration.kind === "slack" ? "webhookUrl" : "url";
  const errors = fieldErrorsOf(connect.error);
  const fieldError = errors[field];

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      setValue("");
      setSecret(null);
      connect.reset();
    }
    onOpenChange(next);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (oauthOnly) {
      authorize.mutate();
      return;
    }
    connect.mutate({ [field]: value.trim() }, {
      onSuccess: (result) => {
        if (result.signingSecret) setSecret(result.signingSecret);
        else handleOpenChange(false);
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent data-testid="connect-dialog">
        <DialogHeader>
          <DialogTitle>Connect {integration.name}</DialogTitle>
          <DialogDescription>{integration.connectable}</DialogDescription>
        </DialogHeader>
        {secret ? (
          <SecretOnce secret={secret} onDone={() => handleOpenChange(false)} />
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
            {integration.oauth ? (
              <div className="flex flex-col gap-2" data-testid="oauth-connect">
                <Button type="button" onClick={() => authorize.mutate()} disabled={authorize.isPending} data-testid="oauth-authorize">
                  {authorize.isPending ? <Spinner /> : null}
                  {integration.slug === "slack" ? "Add to Slack" : `Connect with ${integration.slug === "google-calendar" ? "Google" : integration.name}`}
                </Button>
                <p className="text-xs text-muted-foreground">
                  You sign in on {integration.slug === "google-calendar" ? "Google" : integration.name}&apos;s own page and choose what Switchboard may do; the
                  access it grants is stored encrypted and revoked when you disconnect.
                </p>
              </div>
            ) : null}
            {oauthOnly ? null : (
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="integration-url">{integration.kind === "slack" ? (integration.oauth ? "Or paste a Slack incoming-webhook URL" : "Slack incoming-webhook URL") : "Endpoint URL"}</Label>
                <Input
                  id="integration-url"
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  placeholder={integration.kind === "slack" ? "https://hooks.slack.com/services/…" : "https://example.com/webhooks/switchboard"}
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  aria-invalid={fieldError ? true : undefined}
                  aria-describedby={fieldError ? "integration-url-error" : undefined}
                  data-testid="connect-url"
                  autoFocus={!integration.oauth}
                />
                <FieldError id="integration-url-error" message={fieldError} />
                {integration.kind === "webhook" ? (
                  <p className="text-xs text-muted-foreground">
                    Sends call.completed, message.received and voicemail.received as signed JSON POSTs. Private and local
                    addresses are refused.
                  </p>
                ) : null}
              </div>
            )}
            {oauthOnly ? (
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
                  Cancel
                </Button>
              </DialogFooter>
            ) : (
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={connect.isPending || ((integration.kind === "webhook" || integration.kind === "slack") && !value.trim())} data-testid="connect-submit">
                  {connect.isPending ? <Spinner /> : null}
                  {connect.isPending ? "Connecting..." : integration.kind === "slack" ? "Connect webhook" : "Connect"}
                </Button>
              </DialogFooter>
            )}
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
