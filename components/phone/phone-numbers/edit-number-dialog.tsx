"use client";

import * as React from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { serverMessage } from "@/lib/platform/api-client";
import { updatePhoneNumberInput, type UpdatePhoneNumberFormValues, type UpdatePhoneNumberInput } from "@/lib/phone/numbers/schema";
import { formatPhoneNumber } from "./format";
import { useUpdatePhoneNumber, useVoiceAssistantOptions, type PhoneNumber } from "./use-phone-numbers";

/** Edit: friendly name and the assistant that answers the number. */
export function EditNumberDialog({
  number,
  open,
  onOpenChange,
}: {
  number: PhoneNumber;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const update = useUpdatePhoneNumber();
  const assistants = useVoiceAssistantOptions(open);
  const form = useForm<UpdatePhoneNumberFormValues, unknown, UpdatePhoneNumberInput>({
    resolver: zodResolver(updatePhoneNumberInput),
    defaultValues: { friendlyName: number.friendlyName, assistantId: number.assistantId },
  });
  const { errors } = form.formState;

  React.useEffect(() => {
    if (open) form.reset({ friendlyName: number.friendlyName, assistantId: number.assistantId });
  }, [open, number.friendlyName, number.assistantId, form]);

  const onSubmit = (values: UpdatePhoneNumberInput) => {
    update.mutate(
      { id: number.id, friendlyName: values.friendlyName, assistantId: values.assistantId ?? null },
      {
        onSuccess: (saved) => {
          toast.success("Phone number updated", {
            description: saved.assistantName
              ? `${saved.friendlyName} is answered by ${saved.assistantName}.`
              : `${saved.friendlyName} has no assistant assigned.`,
          });
          onOpenChange(false);
        },
        onError: (error) => {
          toast.error("Error", { description: serverMessage(error) ?? "Failed to update phone number" });
        },
      },
    );
  };

  const options = assistants.data ?? [];
  // Keep the current assignment selectable even if the list has not loaded or no longer includes it.
  const currentMissing = number.assistantId && !options.some((a) => a.id === number.assistantId);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="edit-number-dialog">
        <DialogHeader>
          <DialogTitle>Edit {formatPhoneNumber(number.phoneNumber)}</DialogTitle>
          <DialogDescription>Rename the number and choose the voice assistant that answers it.</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="edit-number-friendly-name">Friendly name</Label>
            <Input
              id="edit-number-friendly-name"
              aria-invalid={errors.friendlyName ? true : undefined}
              aria-describedby={errors.friendlyName ? "edit-number-friendly-name-error" : undefined}
              data-testid="edit-number-friendly-name"
              {...form.register("friendlyName")}
            />
            <FieldError id="edit-number-friendly-name-error" message={errors.friendlyName?.message} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="edit-number-assistant">Assigned assistant</Label>
            <Select
              id="edit-number-assistant"
              disabled={assistants.isLoading}
              aria-invalid={errors.assistantId ? true : undefined}
              aria-describedby="edit-number-assistant-hint"
              data-testid="edit-number-assistant"
              {...form.register("assistantId", { setValueAs: (v: unknown) => (v === "" || v == null ? null : v) })}
            >
              <option value="">No assistant</option>
              {currentMissing ? <option value={number.assistantId!}>{number.assistantName ?? "Current assistant"}</option> : null}
              {options.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                  {a.isActive ? "" : " (inactive)"}
                </option>
              ))}
            </Select>
            <p id="edit-number-assistant-hint" className="text-xs text-muted-foreground">
              {assistants.isLoading
                ? "Loading your assistants…"
                : assistants.isError
                  ? "Couldn't load your assistants. Close and try again."
                  : options.length === 0
                    ? "You have no voice assistants yet. Create one on the Voice Assistants page."
                    : "Calls and texts to this number are handled by this assistant."}
            </p>
            <FieldError id="edit-number-assistant-error" message={errors.assistantId?.message} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending} data-testid="edit-number-submit">
              {update.isPending ? <Spinner /> : null}
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
