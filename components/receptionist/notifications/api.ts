"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";

export type NotificationView = { id: string; kind: string; title: string; body: string; link: string | null; read: boolean; createdAt: string };
export type NotificationList = { unread: number; notifications: NotificationView[] };

export const NOTIFICATIONS_KEY = ["/api/notifications"] as const;
/** How often the bell asks again: a new voicemail shows within half a minute without a reload. */
const POLL_MS = 30_000;

export function useNotifications() {
  return useQuery<NotificationList>({ queryKey: NOTIFICATIONS_KEY, refetchInterval: POLL_MS });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids?: string[]) => (await apiRequest("POST", "/api/notifications/read", ids ? { ids } : {})).json() as Promise<{ unread: number }>,
    onMutate: (ids) => {
      const previous = queryClient.getQueryData<NotificationList>(NOTIFICATIONS_KEY);
      if (previous) {
        const marked = previous.notifications.map((n) => (!ids || ids.includes(n.id) ? { ...n, read: true } : n));
        queryClient.setQueryData<NotificationList>(NOTIFICATIONS_KEY, { unread: marked.filter((n) => !n.read).length, notifications: marked });
      }
      return { previous };
    },
    onError: (error, _ids, context) => {
      if (context?.previous) queryClient.setQueryData(NOTIFICATIONS_KEY, context.previous);
      toast.error(serverMessage(error) ?? "Could not mark the notifications read. Try again.");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
