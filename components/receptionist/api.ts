"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import type { RecapContent } from "@/lib/receptionist/types";
import type { ContactView } from "@/lib/phone/callers/memory";
import type { TaskView } from "@/lib/phone/callers/tasks";

export type { ContactView, RecapContent, TaskView };
export type TaskStatusFilter = "open" | "snoozed" | "done" | "all";
export type TaskList = { tasks: TaskView[]; counts: { open: number; done: number; snoozed: number } };
export type RecapView = { id: string; date: string; content: RecapContent; deliveredTo: string[]; createdAt: string };
export type RecapList = { recaps: RecapView[]; settings: { enabled: boolean; localTime: string; timezone: string } };
export type EmailView = { id: string; to: string; subject: string; text: string; html: string; kind: string; status: "sent" | "outbox" | "failed"; error: string | null; createdAt: string };

export function useTasks(status: TaskStatusFilter) {
  return useQuery<TaskList>({ queryKey: [`/api/tasks?status=${status}`] });
}

function invalidatePrefix(queryClient: ReturnType<typeof useQueryClient>, prefix: string) {
  return queryClient.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === "string" && (q.queryKey[0] as string).startsWith(prefix) });
}

export function useUpdateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: { id: string; status?: "open" | "done" | "snoozed"; assigneeId?: string | null }) =>
      (await apiRequest("PATCH", `/api/tasks/${id}`, body)).json() as Promise<TaskView>,
    onSuccess: () => invalidatePrefix(queryClient, "/api/tasks"),
    onError: (error) => toast.error(serverMessage(error) ?? "The task could not be updated. Try again."),
  });
}

export function useRecaps() {
  return useQuery<RecapList>({ queryKey: ["/api/recaps"] });
}

export function useRunRecap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiRequest("POST", "/api/recaps/run")).json() as Promise<RecapView>,
    onSuccess: () => {
      toast.success("Today's recap is ready.");
      return Promise.all([invalidatePrefix(queryClient, "/api/recaps"), invalidatePrefix(queryClient, "/api/emails")]);
    },
    onError: (error) => toast.error(serverMessage(error) ?? "The recap could not be built. Try again."),
  });
}

export function useSaveRecapSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { enabled?: boolean; localTime?: string }) => (await apiRequest("PUT", "/api/recaps/settings", body)).json(),
    onSuccess: () => {
      toast.success("Recap settings saved.");
      return invalidatePrefix(queryClient, "/api/recaps");
    },
    onError: (error) => toast.error(serverMessage(error) ?? "The settings could not be saved."),
  });
}

export function useEmails() {
  return useQuery<{ smtpConfigured: boolean; emails: EmailView[] }>({ queryKey: ["/api/emails"] });
}

export function useContacts() {
  return useQuery<{ contacts: ContactView[] }>({ queryKey: ["/api/contacts"] });
}

export function useForgetContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await apiRequest("DELETE", `/api/contacts/${id}/memory`)).json(),
    onSuccess: () => {
      toast.success("Erased. Nothing about this caller will be remembered again.");
      return invalidatePrefix(queryClient, "/api/contacts");
    },
    onError: (error) => toast.error(serverMessage(error) ?? "The memory could not be erased."),
  });
}

export type ErasureCertificate = { id: string; subject: string; requestedVia: string; requestedByName: string | null; erased: Record<string, number>; createdAt: string };

/** An owner records a caller's erasure request: everything naming them goes; the certificate comes back. */
export function useEraseContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await apiRequest("POST", `/api/contacts/${id}/erasure`, { confirm: true })).json() as Promise<ErasureCertificate>,
    onSuccess: (certificate) => {
      const total = Object.values(certificate.erased).reduce((a, b) => a + b, 0);
      toast.success(`Erased ${total} record${total === 1 ? "" : "s"} naming ${certificate.subject}. The certificate is under "Erasure certificates".`);
      return invalidatePrefix(queryClient, "/api/contacts");
    },
    onError: (error) => toast.error(serverMessage(error) ?? "The erasure could not be completed. Try again."),
  });
}
