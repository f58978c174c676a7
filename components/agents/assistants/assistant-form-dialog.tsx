"use client";

import * as React from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { CallRulesEditor } from "./call-rules-editor";
import { InterruptionsEditor } from "./interruptions-editor";
import {
  createAssistantInput,
  DESCRIPTION_MAX,
  GREETING_MAX,
  INSTRUCTIONS_MAX,
  NAME_MAX,
  type AssistantFormValues,
  type CreateAssistantInput,
} from "@/lib/agents/assistants/schema";
import {
  useAssistantOptions,
  useCreateAssistant,
  useUpdateAssistant,
  type AssistantOption,
  type VoiceAssistant,
} from "./use-assistants";

const emptyValues: AssistantFormValues = {
  name: "",
  description: "",
  personality: "friendly",
  instructions: "",
  voice: "alloy",
  greeting: "",
  isActive: true,
};

function valuesFrom(assistant: VoiceAssistant | null): AssistantFormValues {
  if (!assistant) return emptyValues;
  const { name, description, personality, instructions, voice, greeting, isActive } = assistant;
  return { name, description, personality, instructions, voice, greeting, isActive } as AssistantFormValues;
}

interface AssistantFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The assistant to edit, or null to create one. */
  assistant: VoiceAssistant | null;
}

/** Create or edit an assistant; validated with the same zod schema as POST /api/voice-assistants. */
export function AssistantFormDialog({ open, onOpenChange, assistant }: AssistantFormDialogProps) {
  const editing = assistant !== null;
  const options = useAssistantOptions();
  const createMutation = useCreateAssistant();
  const updateMutation = useUpdateAssistant();
  const form = useForm<AssistantFormValues, unknown, CreateAssistantInput>({
    resolver: zodResolver(createAssistantInput),
    defaultValues: valuesFrom(assistant),
  });
  const { errors } = form.formState;

  React.useEffect(() => {
    if (open) form.reset(valuesFrom(assistant));
  }, [open, assistant, form]);

  const pending = createMutation.isPending || updateMutation.isPending;

  const onSubmit = (values: CreateAssistantInput) => {
    const done = { onSuccess: () => onOpenChange(false) };
    if (assistant) updateMutation.mutate({ id: assistant.id, patch: values }, done);
    else createMutation.mutate(values, done);
  };

  const personalityList = options.data?.personalities ?? [];
  const voiceList = options.data?.voices ?? [];
  const [personality, voice] = useWatch({ control: form.control, name: ["personality", "voice"] });
  const selectedPersonality = personalityList.find((p) => p.id === personality);
  const selectedVoice = voiceList.find((v) => v.id === voice);

  return (
    <Dialog open={open} onOpenChange={(next) => (!pending ? onOpenChange(next) : undefined)}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto" data-testid="assistant-form-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? "Edit Assistant" : "Create Assistant"}</DialogTitle>
          <DialogDescription>
            {editing
              ? "Change how this assistant sounds and what it does on calls."
              : "Give your assistant a name, a personality, a voice and instructions for its calls."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="assistant-form">
          <div className="flex flex-col gap-2">
            <Label htmlFor="assistant-name">Name</Label>
            <Input
              id="assistant-name"
              maxLength={NAME_MAX}
              placeholder="Front Desk"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "assistant-name-error" : undefined}
              data-testid="assistant-name"
              {...form.register("name")}
            />
            <FieldError id="assistant-name-error" message={errors.name?.message} />
          </div>

          <div className="flex flex-col gap-2">
            <Label htmlFor="assistant-description">Description</Label>
            <Textarea
              id="assistant-description"
              rows={2}
              maxLength={DESCRIPTION_MAX}
              placeholder="Answers the main line during business hours"
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={errors.description ? "assistant-description-error" : undefined}
              data-testid="assistant-description"
              {...form.register("description")}
            />
            <FieldError id="assistant-description-error" message={errors.description?.message} />
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <Controller
              control={form.control}
              name="personality"
              render={({ field }) => (
                <OptionSelect
                  id="assistant-personality"
                  label="Personality"
                  list={personalityList}
                  loading={options.isLoading}
                  error={errors.personality?.message}
                  hint={selectedPersonality?.description}
                  name={field.name}
                  value={field.value ?? ""}
                  onChange={(event) => field.onChange(event.target.value)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
            <Controller
              control={form.control}
              name="voice"
              render={({ field }) => (
                <OptionSelect
                  id="assistant-voice"
                  label="Voice"
                  list={voiceList}
                  loading={options.isLoading}
                  error={errors.voice?.message}
                  hint={selectedVoice?.description}
                  name={field.name}
                  value={field.value ?? ""}
                  onChange={(event) => field.onChange(event.target.value)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
          </div>
          {options.isError ? (
            <p role="alert" className="text-xs text-destructive">
              Could not load the personality and voice lists. Close the form and try again.
            </p>
          ) : null}

          <div className="flex flex-col gap-2">
            <Label htmlFor="assistant-greeting">Greeting</Label>
            <Input
              id="assistant-greeting"
              maxLength={GREETING_MAX}
              placeholder="Thanks for calling! How can I help you today?"
              aria-invalid={errors.greeting ? true : undefined}
              aria-describedby={errors.greeting ? "assistant-greeting-error" : "assistant-greeting-hint"}
              data-testid="assistant-greeting"
              {...form.register("greeting")}
            />
            <p id="assistant-greeting-hint" className="text-xs text-muted-foreground">
              The first thing callers hear. Leave empty for a greeting written from the personality.
            </p>
            <FieldError id="assistant-greeting-error" message={errors.greeting?.message} />
          </div>

          <div className="flex flex-col gap-2">
            <Label htmlFor="assistant-instructions">Instructions</Label>
            <Textarea
              id="assistant-instructions"
              rows={5}
              maxLength={INSTRUCTIONS_MAX}
              placeholder="How the assistant should sound and what to do: when to take a message, what to offer… (hours, address and services come from the Business page)"
              aria-invalid={errors.instructions ? true : undefined}
              aria-describedby={errors.instructions ? "assistant-instructions-error" : undefined}
              data-testid="assistant-instructions"
              {...form.register("instructions")}
            />
            <FieldError id="assistant-instructions-error" message={errors.instructions?.message} />
          </div>

          <Controller
            control={form.control}
            name="isActive"
            render={({ field }) => (
              <div className="flex items-center justify-between gap-4 rounded-lg border border-border p-3">
                <div className="flex flex-col gap-1">
                  <Label htmlFor="assistant-active">Active</Label>
                  <p className="text-xs text-muted-foreground">Only active assistants answer calls.</p>
                </div>
                <Switch
                  id="assistant-active"
                  checked={field.value ?? true}
                  onCheckedChange={field.onChange}
                  data-testid="assistant-active"
                />
              </div>
            )}
          />

          {assistant ? <CallRulesEditor assistantId={assistant.id} initial={assistant.callRules ?? []} /> : null}
          {assistant ? (
            <InterruptionsEditor assistantId={assistant.id} interruptions={assistant.interruptions ?? "speech"} ignoreBackchannels={assistant.ignoreBackchannels ?? true} />
          ) : null}

          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending} data-testid="assistant-form-submit">
              {pending ? <Spinner /> : null}
              {editing ? (pending ? "Saving..." : "Save Changes") : pending ? "Creating..." : "Create Assistant"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

interface OptionSelectProps extends React.ComponentProps<"select"> {
  id: string;
  label: string;
  list: AssistantOption[];
  loading: boolean;
  error?: string;
  hint?: string;
}

function OptionSelect({ id, label, list, loading, error, hint, ...selectProps }: OptionSelectProps) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select
        id={id}
        aria-busy={loading || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-testid={id}
        {...selectProps}
      >
        {/* Until the list arrives, keep the current value selectable so nothing changes under the user. */}
        {list.length === 0 ? <option value={String(selectProps.value ?? "")}>{loading ? "Loading…" : String(selectProps.value ?? "")}</option> : null}
        {list.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </Select>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
