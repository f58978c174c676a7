"use client";

import * as React from "react";
import { Bot, Plus, RotateCw, Zap } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { AssistantCard } from "./assistant-card";
import { AssistantFormDialog } from "./assistant-form-dialog";
import { AssistantLimitDialog } from "./assistant-limit-dialog";
import {
  isAtAssistantLimit,
  quickCreateInput,
  useAssistantOptions,
  useAssistants,
  useCreateAssistant,
  useDeleteAssistant,
  useUpdateAssistant,
  type VoiceAssistant,
} from "./use-assistants";

/** /voice-assistants (core §2): the grid, the empty state, the form and the one-click create. */
export function VoiceAssistantsScreen() {
  const assistants = useAssistants();
  const options = useAssistantOptions();
  const quickCreate = useCreateAssistant();
  const toggle = useUpdateAssistant();
  const remove = useDeleteAssistant();

  const [formOpen, setFormOpen] = React.useState(false);
  const [editing, setEditing] = React.useState<VoiceAssistant | null>(null);
  const [deleting, setDeleting] = React.useState<VoiceAssistant | null>(null);
  const [limitOpen, setLimitOpen] = React.useState(false);

  const list = assistants.data ?? [];
  const limit = options.data?.limit;
  const atLimit = isAtAssistantLimit(limit, list.length);

  // At the plan's limit a create would fail (403): both create buttons offer the way on instead.
  const openCreate = () => {
    if (atLimit) return setLimitOpen(true);
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (assistant: VoiceAssistant) => {
    setEditing(assistant);
    setFormOpen(true);
  };
  const onQuickCreate = () => (atLimit ? setLimitOpen(true) : quickCreate.mutate(quickCreateInput(list)));

  const togglingId = toggle.isPending ? toggle.variables?.id : undefined;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="voice-assistants">
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Voice Assistants</h1>
          <p className="text-muted-foreground">The AI voices that answer your calls: how they sound, behave and greet callers.</p>
          {limit && limit.limit !== null && !assistants.isLoading ? (
            <p className="text-sm text-muted-foreground" data-testid="assistant-limit-note">
              {list.length} of {limit.limit} on the {limit.planName} plan
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" onClick={onQuickCreate} disabled={quickCreate.isPending} data-testid="assistant-quick-create">
            {quickCreate.isPending ? <Spinner /> : <Zap aria-hidden />}
            {quickCreate.isPending ? "Creating..." : "Quick create"}
          </Button>
          <Button onClick={openCreate} data-testid="assistant-create">
            <Plus aria-hidden />
            Create Assistant
          </Button>
        </div>
      </div>

      {assistants.isLoading ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-busy="true" aria-label="Loading assistants">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-72 rounded-xl" />
          ))}
        </div>
      ) : assistants.isError ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <span>We couldn&apos;t load your voice assistants.</span>
          <Button size="sm" variant="outline" onClick={() => void assistants.refetch()} disabled={assistants.isRefetching}>
            <RotateCw aria-hidden className={assistants.isRefetching ? "animate-spin" : undefined} />
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <Card className="border-dashed" data-testid="assistants-empty">
          <CardContent className="flex flex-col items-center gap-4 px-6 py-16 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/15 text-primary">
              <Bot className="size-6" aria-hidden />
            </span>
            <div className="flex flex-col gap-1">
              <h2 className="text-lg font-semibold">No Voice Assistants</h2>
              <p className="max-w-md text-sm text-muted-foreground">
                Create your first assistant to start answering calls. Choose its personality, voice and instructions, or
                start from the defaults and edit later.
              </p>
            </div>
            <div className="flex flex-wrap justify-center gap-3">
              <Button onClick={openCreate} data-testid="assistants-empty-create">
                <Plus aria-hidden />
                Create Assistant
              </Button>
              <Button variant="outline" onClick={onQuickCreate} disabled={quickCreate.isPending}>
                {quickCreate.isPending ? <Spinner /> : <Zap aria-hidden />}
                {quickCreate.isPending ? "Creating..." : "Quick create with defaults"}
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="assistants-grid">
          {list.map((assistant) => (
            <AssistantCard
              key={assistant.id}
              assistant={assistant}
              options={options.data}
              toggling={togglingId === assistant.id}
              onToggle={() => toggle.mutate({ id: assistant.id, patch: { isActive: !assistant.isActive } })}
              onEdit={() => openEdit(assistant)}
              onDelete={() => setDeleting(assistant)}
            />
          ))}
        </div>
      )}

      <AssistantFormDialog open={formOpen} onOpenChange={setFormOpen} assistant={editing} />

      {limit ? (
        <AssistantLimitDialog
          open={limitOpen}
          onOpenChange={setLimitOpen}
          limit={limit}
          assistants={list}
          onEdit={(assistant) => {
            setLimitOpen(false);
            openEdit(assistant);
          }}
        />
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete this assistant?"
        description={
          deleting
            ? `"${deleting.name}" will stop answering calls and be removed. Numbers that used it will need another assistant. This cannot be undone.`
            : ""
        }
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
