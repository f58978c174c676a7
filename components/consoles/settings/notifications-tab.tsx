"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import type { NotificationPreferences } from "@/lib/workspace/settings/schema";

const NOTIFICATIONS_QUERY_KEY = ["/api/settings/notifications"] as const;

const switches: { key: keyof NotificationPreferences; label: string; description: string }[] = [
  { key: "messageAlerts", label: "Messages", description: "A caller left a message with the assistant, or texted something that needs you." },
  { key: "voicemailAlerts", label: "Voicemails", description: "A caller left a voicemail." },
  { key: "missedCallAlerts", label: "Missed calls", description: "A call nobody answered." },
  { key: "urgentTaskAlerts", label: "Urgent tasks", description: "A caller said it is urgent: an emergency, a leak, severe pain." },
  { key: "alertEmails", label: "E-mail these alerts", description: "Send the alerts above by e-mail too, not only here in the app." },
  { key: "callAlerts", label: "Call Alerts", description: "Every call alert, including calls the assistant handled on its own. Off silences all call alerts." },
  { key: "emailNotifications", label: "Email Notifications", description: "Receive a summary of other activity (handled calls, daily recaps) by e-mail." },
  { key: "systemUpdates", label: "System Updates", description: "Hear about new features and maintenance, and get the daily recap." },
];

/** Settings → Notifications: the switches, each saved as soon as it is flipped. */
export function NotificationsTab() {
  const queryClient = useQueryClient();
  const prefs = useQuery<NotificationPreferences>({ queryKey: NOTIFICATIONS_QUERY_KEY });

  const save = useMutation<NotificationPreferences, Error, Partial<NotificationPreferences>, { previous?: NotificationPreferences }>({
    mutationFn: async (patch) => (await apiRequest("PUT", "/api/settings/notifications", patch)).json(),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
      const previous = queryClient.getQueryData<NotificationPreferences>(NOTIFICATIONS_QUERY_KEY);
      if (previous) queryClient.setQueryData(NOTIFICATIONS_QUERY_KEY, { ...previous, ...patch });
      return { previous };
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(NOTIFICATIONS_QUERY_KEY, saved);
      toast.success("Notification preferences saved");
    },
    onError: (error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(NOTIFICATIONS_QUERY_KEY, context.previous);
      if (isUnauthorizedError(error)) return;
      toast.error("Failed to save notification preferences", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>Choose what Switchboard tells you about. Changes save immediately.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col divide-y divide-border">
        {prefs.isLoading ? (
          switches.map(({ key }) => <Skeleton key={key} className="my-3 h-10" />)
        ) : prefs.isError ? (
          <div role="alert" className="flex items-center justify-between gap-3 py-3 text-sm">
            <span>We couldn&apos;t load your notification preferences.</span>
            <Button size="sm" variant="outline" onClick={() => void prefs.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          switches.map(({ key, label, description }) => (
            <div key={key} className="flex items-center justify-between gap-4 py-4 first:pt-0 last:pb-0">
              <div className="flex flex-col gap-1">
                <Label htmlFor={`notify-${key}`}>{label}</Label>
                <p id={`notify-${key}-hint`} className="text-sm text-muted-foreground">
                  {description}
                </p>
              </div>
              <Switch
                id={`notify-${key}`}
                aria-describedby={`notify-${key}-hint`}
                checked={prefs.data?.[key] ?? false}
                disabled={save.isPending}
                onCheckedChange={(checked) => save.mutate({ [key]: checked })}
                data-testid={`notify-${key}`}
              />
            </div>
          ))
        )}
      </CardContent>
    </Card>
  );
}
