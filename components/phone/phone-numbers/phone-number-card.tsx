"use client";

import * as React from "react";
import { Bot, Pencil, Phone, PhoneForwarded, Settings2, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Switch } from "@/components/ui/switch";
import { serverMessage } from "@/lib/platform/api-client";
import { ConfigureNumberDialog } from "./configure-number-dialog";
import { EditNumberDialog } from "./edit-number-dialog";
import { formatCreatedDate, formatPhoneNumber } from "./format";
import { NumberOwnership } from "./number-ownership";
import { PhonePanel } from "./phone-panel";
import { useDeletePhoneNumber, useUpdatePhoneNumber, type PhoneNumber } from "./use-phone-numbers";

export function PhoneNumberCard({ number }: { number: PhoneNumber }) {
  const [dialog, setDialog] = React.useState<"call" | "edit" | "configure" | "delete" | null>(null);
  const callButton = React.useRef<HTMLButtonElement>(null);
  const update = useUpdatePhoneNumber();
  const remove = useDeletePhoneNumber();
  const formatted = formatPhoneNumber(number.phoneNumber);

  const toggleActive = (isActive: boolean) => {
    update.mutate(
      { id: number.id, isActive },
      {
        onSuccess: () =>
          toast.success("Phone number updated", { description: `${formatted} is now ${isActive ? "active" : "inactive"}.` }),
        onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Failed to update phone number" }),
      },
    );
  };

  const release = () => {
    remove.mutate(number.id, {
      onSuccess: () => toast.success("Phone number released", { description: `${formatted} was released and removed.` }),
      onError: (error) => toast.error("Error", { description: serverMessage(error) ?? "Failed to release phone number" }),
    });
  };

  return (
    <Card className="flex flex-col" data-testid="phone-number-card">
      <CardHeader className="gap-3 pb-4">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h2 className="text-lg font-semibold tracking-tight tabular-nums" data-testid="phone-number-value">
              {formatted}
            </h2>
            <p className="truncate text-sm text-muted-foreground" data-testid="phone-number-friendly-name">
              {number.friendlyName}
            </p>
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1.5">
            <Badge variant={number.isActive && number.ownership.status !== "pending" && number.ownership.status !== "failed" ? "success" : "secondary"} data-testid="phone-number-status">
              {number.ownership.status === "pending" || number.ownership.status === "failed" ? "Not verified" : number.isActive ? "Active" : "Inactive"}
            </Badge>
            {number.provider === "simulated" ? (
              <Badge variant="outline" title="This number comes from Switchboard's simulated carrier: it cannot receive real calls.">
                Practice number
              </Badge>
            ) : null}
          </div>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          <dt className="text-muted-foreground">Created</dt>
          <dd>
            <time dateTime={number.createdAt}>{formatCreatedDate(number.createdAt)}</time>
          </dd>
        </dl>
        {/* Carrier identifiers matter to whoever connects Twilio, not to an owner: behind "Details". */}
        <details className="text-xs" data-testid="phone-number-details">
          <summary className="cursor-pointer text-muted-foreground hover:text-foreground">Details</summary>
          <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted-foreground">Twilio SID</dt>
            <dd className="truncate font-mono leading-5" title={number.twilioSid ?? undefined} data-testid="phone-number-sid">
              {number.twilioSid ?? "—"}
            </dd>
          </dl>
          {number.provider === "simulated" ? (
            <p className="mt-1 text-muted-foreground">A practice identifier: this number is not a real Twilio number.</p>
          ) : null}
        </details>
        <div className="flex flex-col gap-1.5 text-muted-foreground">
          <p className="flex items-center gap-2">
            <Bot className="size-4 shrink-0" aria-hidden />
            <span className="truncate">{number.assistantName ? `Answered by ${number.assistantName}` : "No assistant assigned"}</span>
          </p>
          {number.forwardTo ? (
            <p className="flex items-center gap-2">
              <PhoneForwarded className="size-4 shrink-0" aria-hidden />
              <span className="truncate">Forwards to {formatPhoneNumber(number.forwardTo)}</span>
            </p>
          ) : null}
        </div>
        <NumberOwnership number={number} />
        <label className="mt-auto flex items-center justify-between gap-3 rounded-md border border-border px-3 py-2">
          <span className="font-medium">{number.isActive ? "Active" : "Inactive"}</span>
          <Switch
            checked={number.isActive}
            disabled={update.isPending}
            onCheckedChange={toggleActive}
            aria-label={number.isActive ? `Deactivate ${formatted}` : `Activate ${formatted}`}
            data-testid="phone-number-active-switch"
          />
        </label>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button ref={callButton} size="sm" onClick={() => setDialog("call")} data-testid="phone-number-call" aria-label={`Call ${formatted}`}>
          <Phone aria-hidden />
          Call
        </Button>
        <Button variant="outline" size="sm" onClick={() => setDialog("edit")} data-testid="phone-number-edit">
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button variant="outline" size="sm" onClick={() => setDialog("configure")} data-testid="phone-number-configure">
          <Settings2 aria-hidden />
          Configure
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto text-destructive hover:bg-destructive/10 hover:text-destructive"
          onClick={() => setDialog("delete")}
          disabled={remove.isPending}
          aria-label={`Delete ${formatted}`}
          data-testid="phone-number-delete"
        >
          <Trash2 aria-hidden />
        </Button>
      </CardFooter>

      <PhonePanel number={number} open={dialog === "call"} onOpenChange={(o) => setDialog(o ? "call" : null)} returnFocusTo={callButton} />
      <EditNumberDialog number={number} open={dialog === "edit"} onOpenChange={(o) => setDialog(o ? "edit" : null)} />
      <ConfigureNumberDialog number={number} open={dialog === "configure"} onOpenChange={(o) => setDialog(o ? "configure" : null)} />
      <ConfirmDialog
        open={dialog === "delete"}
        onOpenChange={(o) => setDialog(o ? "delete" : null)}
        title="Release this number?"
        description={`${formatted} (${number.friendlyName}) will be released at the carrier and removed from Switchboard. Calls and texts to it will stop reaching you, and you may not be able to get the same number back.`}
        confirmLabel="Release number"
        destructive
        pending={remove.isPending}
        onConfirm={release}
      />
    </Card>
  );
}
