"use client";

import { Bot, CalendarDays, Pencil, Power, PowerOff, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import type { AssistantOptions, VoiceAssistant } from "./use-assistants";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

function labelOf(list: { id: string; label: string }[] | undefined, id: string): string {
  return list?.find((item) => item.id === id)?.label ?? id.charAt(0).toUpperCase() + id.slice(1);
}

interface AssistantCardProps {
  assistant: VoiceAssistant;
  options: AssistantOptions | undefined;
  toggling: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One assistant in the grid (core §2): name, description, status, personality, voice, instructions, created date. */
export function AssistantCard({ assistant, options, toggling, onToggle, onEdit, onDelete }: AssistantCardProps) {
  const { name, description, isActive, personality, voice, instructions, createdAt } = assistant;
  return (
    <Card className="flex flex-col" data-testid="assistant-card" data-assistant-id={assistant.id}>
      <CardHeader className="gap-2">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary">
              <Bot className="size-4" aria-hidden />
            </span>
            <CardTitle className="truncate" data-testid="assistant-name-text">
              {name}
            </CardTitle>
          </div>
          <Badge variant={isActive ? "success" : "secondary"} data-testid="assistant-status">
            {isActive ? "Active" : "Inactive"}
          </Badge>
        </div>
        {description ? <CardDescription className="line-clamp-2">{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          <dt className="text-muted-foreground">Personality</dt>
          <dd data-testid="assistant-personality-text">{labelOf(options?.personalities, personality)}</dd>
          <dt className="text-muted-foreground">Voice</dt>
          <dd data-testid="assistant-voice-text">{labelOf(options?.voices, voice)}</dd>
        </dl>
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground">Instructions</span>
          <p className="line-clamp-3 text-foreground/90" title={instructions || undefined}>
            {instructions || <span className="text-muted-foreground italic">None yet</span>}
          </p>
        </div>
        <p className="mt-auto flex items-center gap-1.5 text-xs text-muted-foreground">
          <CalendarDays className="size-3.5" aria-hidden />
          Created {dateFormat.format(new Date(createdAt))}
        </p>
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          onClick={onToggle}
          disabled={toggling}
          className="flex-1"
          data-testid="assistant-toggle"
        >
          {toggling ? <Spinner /> : isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
          {isActive ? "Deactivate" : "Activate"}
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit} data-testid="assistant-edit">
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button
          size="icon"
          variant="ghost"
          onClick={onDelete}
          className="text-destructive hover:text-destructive"
          aria-label={`Delete ${name}`}
          data-testid="assistant-delete"
        >
          <Trash2 aria-hidden />
        </Button>
      </CardFooter>
    </Card>
  );
}
