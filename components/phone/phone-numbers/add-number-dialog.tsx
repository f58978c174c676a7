"use client";

import * as React from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { errorToast } from "@/components/workspace/billing/billing-link";
import { Check, Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { clearStoredSessionId, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import {
  areaCode as areaCodeSchema,
  createPhoneNumberInput,
  type CreatePhoneNumberFormValues,
  type CreatePhoneNumberInput,
} from "@/lib/phone/numbers/schema";
import { cn, fullPageNavigate } from "@/lib/platform/utils";
import { formatPhoneNumber } from "./format";
import { useAvailableNumbers, useCreatePhoneNumber } from "./use-phone-numbers";

/** Spec §9: a phone-number 401 redirects after 0.5 s. */
export const PHONE_NUMBER_UNAUTHORIZED_REDIRECT_MS = 500;

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

const defaults: CreatePhoneNumberFormValues = { friendlyName: "", isActive: true, mode: "new" };

export function AddNumberDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" data-testid="add-number-dialog">
        <DialogHeader>
          <DialogTitle>Add a phone number</DialogTitle>
          <DialogDescription>Get a new number for your business, or connect one you already own.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts with an empty form. */}
        <AddNumberForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddNumberForm({ onDone }: { onDone: () => void }) {
  const createMutation = useCreatePhoneNumber();
  const form = useForm<CreatePhoneNumberFormValues, unknown, CreatePhoneNumberInput>({
    resolver: zodResolver(createPhoneNumberInput),
    defaultValues: defaults,
  });
  const { errors } = form.formState;
  const mode = useWatch({ control: form.control, name: "mode" }) ?? "new";
  const picked = useWatch({ control: form.control, name: "phoneNumber" });

  // The area code whose numbers are shown; null until the first search.
  const [searchedAreaCode, setSearchedAreaCode] = React.useState<string | null>(null);
  const available = useAvailableNumbers(searchedAreaCode);

  const search = () => {
    const raw = (form.getValues("areaCode") ?? "").trim();
    if (raw !== "") {
      const checked = areaCodeSchema.safeParse(raw);
      if (!checked.success) {
        form.setError("areaCode", { message: checked.error.issues[0]?.message });
        return;
      }
    }
    form.clearErrors("areaCode");
    form.setValue("phoneNumber", undefined);
    setSearchedAreaCode(raw);
  };

  const switchMode = (next: string) => {
    form.setValue("mode", next === "existing" ? "existing" : "new");
    form.setValue("phoneNumber", undefined);
    form.setValue("areaCode", undefined);
    form.clearErrors();
  };

  const onSubmit = (values: CreatePhoneNumberInput) => {
    createMutation.mutate(values, {
      onSuccess: (number) => {
        toast.success("Phone number added successfully", {
          description: `${formatPhoneNumber(number.phoneNumber)} · ${number.friendlyName}`,
        });
        onDone();
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) {
          toast.error("Unauthorized", { description: "You are logged out. Logging in again..." });
          clearStoredSessionId();
          window.setTimeout(() => fullPageNavigate("/api/login"), PHONE_NUMBER_UNAUTHORIZED_REDIRECT_MS);
          return;
        }
        errorToast("Error", serverMessage(error) ?? "Failed to add phone number");
      },
    });
  };

  const pending = createMutation.isPending;
  const searchError = available.isError ? (serverMessage(available.error) ?? "Could not search for numbers. Try again.") : null;

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-5">
      <Tabs value={mode} onValueChange={switchMode}>
        <TabsList className="w-full">
          <TabsTrigger value="new" data-testid="add-number-tab-new">
            New number
          </TabsTrigger>
          <TabsTrigger value="existing" data-testid="add-number-tab-existing">
            Bring your own
          </TabsTrigger>
        </TabsList>

        <TabsContent value="new" className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="add-number-area-code">Preferred area code (optional)</Label>
            <div className="flex gap-2">
              <Input
                id="add-number-area-code"
                inputMode="numeric"
                maxLength={3}
                placeholder="415"
                className="w-28"
                aria-invalid={errors.areaCode ? true : undefined}
                aria-describedby={errors.areaCode ? "add-number-area-code-error" : "add-number-area-code-hint"}
                data-testid="add-number-area-code"
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    search();
                  }
                }}
                {...form.register("areaCode", { setValueAs: emptyToUndefined })}
              />
              <Button type="button" variant="outline" onClick={search} disabled={available.isFetching} data-testid="add-number-search">
                {available.isFetching ? <Spinner /> : <Search aria-hidden />}
                Search
              </Button>
            </div>
            <p id="add-number-area-code-hint" className="text-xs text-muted-foreground">
              Search to pick a number, or just add: we take the first one available.
            </p>
            <FieldError id="add-number-area-code-error" message={errors.areaCode?.message} />
          </div>

          {searchedAreaCode !== null ? (
            <AvailableList
              loading={available.isLoading}
              error={searchError}
              data={available.data}
              picked={picked}
              onPick={(n) => form.setValue("phoneNumber", n === picked ? undefined : n, { shouldValidate: false })}
            />
          ) : null}
          <FieldError id="add-number-picked-error" message={mode === "new" ? errors.phoneNumber?.message : undefined} />
        </TabsContent>

        <TabsContent value="existing" className="flex flex-col gap-2">
          <Label htmlFor="add-number-existing">Your phone number</Label>
          <Input
            id="add-number-existing"
            type="tel"
            autoComplete="tel"
            placeholder="+14155550123"
            aria-invalid={errors.phoneNumber ? true : undefined}
            aria-describedby={errors.phoneNumber ? "add-number-existing-error" : "add-number-existing-hint"}
            data-testid="add-number-existing"
            {...form.register("phoneNumber", { setValueAs: emptyToUndefined })}
          />
          <p id="add-number-existing-hint" className="text-xs text-muted-foreground">
            With + and the country code, e.g. +14155550123. It must be a number you own.
          </p>
          <details className="text-xs text-muted-foreground" data-testid="add-number-existing-details">
            <summary className="cursor-pointer hover:text-foreground">Details</summary>
            <p className="mt-1">In E.164 format. With Twilio, it must be a number in your Twilio account or a verified caller ID.</p>
          </details>
          <FieldError id="add-number-existing-error" message={mode === "existing" ? errors.phoneNumber?.message : undefined} />
        </TabsContent>
      </Tabs>

      <div className="flex flex-col gap-2">
        <Label htmlFor="add-number-friendly-name">Friendly name</Label>
        <Input
          id="add-number-friendly-name"
          placeholder="Main line"
          aria-invalid={errors.friendlyName ? true : undefined}
          aria-describedby={errors.friendlyName ? "add-number-friendly-name-error" : undefined}
          data-testid="add-number-friendly-name"
          {...form.register("friendlyName")}
        />
        <FieldError id="add-number-friendly-name-error" message={errors.friendlyName?.message} />
      </div>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending} data-testid="add-number-submit">
          {pending ? <Spinner /> : null}
          {pending ? "Adding..." : "Add"}
        </Button>
      </DialogFooter>
    </form>
  );
}

function AvailableList({
  loading,
  error,
  data,
  picked,
  onPick,
}: {
  loading: boolean;
  error: string | null;
  data: { provider: "twilio" | "simulated"; numbers: { phoneNumber: string; locality?: string; region?: string }[] } | undefined;
  picked: string | undefined;
  onPick: (phoneNumber: string) => void;
}) {
  if (loading) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Searching…
      </p>
    );
  }
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {error}
      </p>
    );
  }
  if (!data) return null;
  if (data.numbers.length === 0) {
    return <p className="text-sm text-muted-foreground">No numbers available there. Try another area code.</p>;
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium" id="available-numbers-label">
          Available numbers
        </p>
        {data.provider === "simulated" ? (
          <Badge variant="outline" title="Numbers from Switchboard's simulated carrier: try calls and texts here; they cannot receive real calls.">
            Practice numbers
          </Badge>
        ) : null}
      </div>
      <div
        role="radiogroup"
        aria-labelledby="available-numbers-label"
        className="grid max-h-56 gap-2 overflow-y-auto pr-1 sm:grid-cols-2"
        data-testid="available-numbers"
      >
        {data.numbers.map((n) => {
          const selected = n.phoneNumber === picked;
          const place = [n.locality, n.region].filter(Boolean).join(", ");
          return (
            <button
              key={n.phoneNumber}
              type="button"
              role="radio"
              aria-checked={selected}
              onClick={() => onPick(n.phoneNumber)}
              className={cn(
                "flex items-center justify-between gap-2 rounded-md border px-3 py-2 text-left text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
                selected ? "border-primary bg-primary/10" : "border-border hover:bg-accent",
              )}
              data-testid="available-number"
            >
              <span className="flex flex-col">
                <span className="font-medium tabular-nums">{formatPhoneNumber(n.phoneNumber)}</span>
                {place ? <span className="text-xs text-muted-foreground">{place}</span> : null}
              </span>
              {selected ? <Check className="size-4 text-primary" aria-hidden /> : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}
