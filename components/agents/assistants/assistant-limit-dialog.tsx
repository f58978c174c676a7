"use client";

import Link from "next/link";
import { Pencil, Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { AssistantLimit, VoiceAssistant } from "./use-assistants";

/** How many edit buttons the dialog offers; more assistants than that are on the page behind it. */
const EDIT_CHOICES = 3;

function plural(n: number | null): string {
  return n === null ? "unlimited voice assistants" : `${n} voice ${n === 1 ? "assistant" : "assistants"}`;
}

interface AssistantLimitDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  limit: AssistantLimit;
  assistants: readonly VoiceAssistant[];
  onEdit: (assistant: VoiceAssistant) => void;
}

/**
 * What Create Assistant (and Quick create) open when the plan's assistant slots are all taken: a
 * way on — edit an existing assistant, or the plan that allows more, in Billing — instead of a form
 * whose save would fail with 403.
 */
export function AssistantLimitDialog({ open, onOpenChange, limit, assistants, onEdit }: AssistantLimitDialogProps) {
  const choices = assistants.slice(0, EDIT_CHOICES);
  const title = `Your ${limit.planName} plan allows ${plural(limit.limit)}`;
  const upgradeText = limit.waitingForPayment
    ? `Your ${limit.waitingForPayment.name} plan is waiting for payment; until it is paid, the Free plan's limits apply. Complete payment in Billing to add more assistants.`
    : limit.upgrade
      ? `To add another, upgrade to ${limit.upgrade.name} (${plural(limit.upgrade.limit)}) in Billing.`
      : "To add another, remove one first.";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="assistant-limit-dialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {assistants.length === 1
              ? `"${assistants[0].name}" already takes your plan's slot. You can change its name, voice, greeting and instructions at any time.`
              : "Every slot is taken. You can change any assistant's name, voice, greeting and instructions at any time."}
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          {choices.map((assistant) => (
            <Button
              key={assistant.id}
              type="button"
              variant="outline"
              className="justify-start"
              onClick={() => onEdit(assistant)}
              data-testid="assistant-limit-edit"
            >
              <Pencil aria-hidden />
              Edit {assistant.name}
            </Button>
          ))}
        </div>
        <p className="text-sm text-muted-foreground" data-testid="assistant-limit-upgrade-text">
          {upgradeText}
        </p>
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          {limit.waitingForPayment || limit.upgrade ? (
            <Button asChild>
              <Link href="/billing" data-testid="assistant-limit-upgrade">
                <Sparkles aria-hidden />
                {limit.waitingForPayment ? "Complete payment in Billing" : `Upgrade to ${limit.upgrade!.name}`}
              </Link>
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
