"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { RELAY_INTERRUPTIONS } from "@/lib/agents/assistants/schema";
import { useUpdateAssistant, type InterruptionsView } from "./use-assistants";

const LABELS: Record<InterruptionsView, string> = {
  speech: "The caller speaking (recommended)",
  any: "Speaking or pressing a key",
  dtmf: "Pressing a key only",
  none: "Nothing: the assistant always finishes",
};

/**
 * How callers may interrupt the assistant on a streaming number (ConversationRelay, issue 27): what
 * cuts its speech off, and whether "uh-huh", "okay" and "yeah" while it talks are ignored.
 */
export function InterruptionsEditor({ assistantId, interruptions, ignoreBackchannels }: { assistantId: string; interruptions: InterruptionsView; ignoreBackchannels: boolean }) {
  const [mode, setMode] = React.useState<InterruptionsView>(interruptions);
  const [ignore, setIgnore] = React.useState(ignoreBackchannels);
  const update = useUpdateAssistant();
  const speechInterrupts = mode === "speech" || mode === "any";
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-border p-3" data-testid="interruptions-editor">
      <div className="flex flex-col gap-1">
        <Label htmlFor="assistant-interruptions">Interruptions on streaming numbers</Label>
        <p className="text-xs text-muted-foreground">What may cut the assistant off while it is talking, on numbers set to low-latency streaming.</p>
      </div>
      <Select id="assistant-interruptions" value={mode} onChange={(e) => setMode(e.target.value as InterruptionsView)} data-testid="assistant-interruptions">
        {RELAY_INTERRUPTIONS.map((m) => (
          <option key={m} value={m}>
            {LABELS[m]}
          </option>
        ))}
      </Select>
      <div className="flex items-center justify-between gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="assistant-backchannels">Ignore &ldquo;uh-huh&rdquo; and &ldquo;okay&rdquo;</Label>
          <p className="text-xs text-muted-foreground">
            {speechInterrupts ? "A caller who only acknowledges what the assistant says does not cut it off." : "Speech does not interrupt with this choice; acknowledgements are still not taken as a question."}
          </p>
        </div>
        <Switch id="assistant-backchannels" checked={ignore} onCheckedChange={setIgnore} data-testid="assistant-backchannels" />
      </div>
      <div>
        <Button type="button" onClick={() => update.mutate({ id: assistantId, patch: { interruptions: mode, ignoreBackchannels: ignore } })} disabled={update.isPending} data-testid="interruptions-save">
          {update.isPending ? <Spinner /> : null}
          Save interruptions
        </Button>
      </div>
    </section>
  );
}
