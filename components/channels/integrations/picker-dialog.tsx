"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { serverMessage } from "@/lib/platform/api-client";
import type { IntegrationView } from "@/lib/channels/integrations/catalogue";
import { useOptions, useSaveSettings } from "./api";

const pickers: Record<string, { key: string; what: string; description: string }> = {
  slack: { key: "channelId", what: "channel", description: "Missed calls and owner notices are posted to this channel." },
  "google-calendar": { key: "calendarId", what: "calendar", description: "Busy times on this calendar block slots; bookings are written to it." },
  notion: { key: "databaseId", what: "database", description: "Every call becomes a page in this database." },
  airtable: { key: "tableId", what: "table", description: "Every call becomes a record in this table." },
  asana: { key: "projectId", what: "project", description: "Every new receptionist task becomes a task in this project." },
};

/** The channel picker of "Add to Slack" and the calendar picker of Google Calendar. */
export function PickerDialog({ integration, open, onOpenChange }: { integration: IntegrationView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const options = useOptions(integration, open);
  const save = useSaveSettings(integration);
  const { key, what, description } = pickers[integration.slug] ?? pickers["google-calendar"];
  const current = typeof integration.config[key] === "string" ? (integration.config[key] as string) : "";
  // null: nothing picked in this dialog yet, so the saved choice shows.
  const [choice, setChoice] = React.useState<string | null>(null);
  const picked = choice ?? current;
  const setPicked = setChoice;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setChoice(null);
        onOpenChange(next);
      }}
    >
      <DialogContent data-testid="picker-dialog">
        <DialogHeader>
          <DialogTitle>
            {integration.name} {what}
          </DialogTitle>
          <DialogDescription>
            {description}
          </DialogDescription>
        </DialogHeader>
        {options.isLoading ? (
          <Spinner />
        ) : options.error ? (
          <p className="text-sm text-destructive">{serverMessage(options.error) ?? `Could not load the ${what}s`}</p>
        ) : (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${integration.slug}-picker`}>Choose a {what}</Label>
            <Select id={`${integration.slug}-picker`} value={picked} onChange={(e) => setPicked(e.target.value)} data-testid="picker-select">
              <option value="">—</option>
              {(options.data ?? []).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </Select>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            disabled={!picked || save.isPending}
            onClick={() => save.mutate({ [key]: picked }, { onSuccess: () => onOpenChange(false) })}
            data-testid="picker-save"
          >
            {save.isPending ? <Spinner /> : null}
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
