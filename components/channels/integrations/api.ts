"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import type { DeliveryView, IntegrationView } from "@/lib/channels/integrations/catalogue";
import { fieldErrorsOf } from "@/components/platform/server-errors";

export const INTEGRATIONS_KEY = ["/api/integrations"] as const;
export const deliveriesKey = (slug: string) => ["/api/integrations", slug, "deliveries"] as const;

export type ConnectResult = IntegrationView & { signingSecret?: string; authorizeUrl?: string };

export function useConnect(integration: IntegrationView) {
  const queryClient = useQueryClient();
  return useMutation<ConnectResult, Error, Record<string, string>>({
    mutationFn: async (body) => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/connect`, body);
      return (await res.json()) as ConnectResult;
    },
    onSuccess: (result) => {
      if (result.authorizeUrl) return; // the browser is on its way to the provider
      void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY, exact: true });
      toast.success("Integration connected", { description: `${integration.name} is connected.` });
    },
    onError: (error) => {
      if (Object.keys(fieldErrorsOf(error)).length > 0) return; // shown under the field
      toast.error("Could not connect", { description: serverMessage(error) ?? `Failed to connect ${integration.name}` });
    },
  });
}

export function useDisconnect(integration: IntegrationView) {
  const queryClient = useQueryClient();
  return useMutation<IntegrationView, Error, void>({
    mutationFn: async () => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/disconnect`);
      return (await res.json()) as IntegrationView;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY, exact: true });
      toast.success("Integration disconnected", { description: `${integration.name} is disconnected.` });
    },
    onError: (error) => {
      toast.error("Could not disconnect", { description: serverMessage(error) ?? `Failed to disconnect ${integration.name}` });
    },
  });
}

export function useSendTest(integration: IntegrationView) {
  const queryClient = useQueryClient();
  return useMutation<DeliveryView, Error, void>({
    mutationFn: async () => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/test`);
      return (await res.json()) as DeliveryView;
    },
    onSuccess: (delivery) => {
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(integration.slug) });
      if (delivery.status === "delivered") {
        toast.success("Test event sent", { description: `${integration.name} answered ${delivery.lastStatusCode ?? "OK"}.` });
      } else {
        toast.error("Test event not delivered", {
          description: `${delivery.lastError ?? "The endpoint did not accept it"}. It will be retried automatically.`,
        });
      }
    },
    onError: (error) => {
      toast.error("Test event failed", { description: serverMessage(error) ?? "Could not send the test event" });
    },
  });
}

/** Starts the OAuth flow: the server answers the provider's authorization URL, and the browser goes there. */
export function useAuthorize(integration: IntegrationView) {
  return useMutation<{ authorizeUrl: string }, Error, void>({
    mutationFn: async () => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/connect`, {});
      return (await res.json()) as { authorizeUrl: string };
    },
    onSuccess: ({ authorizeUrl }) => {
      window.location.assign(authorizeUrl);
    },
    onError: (error) => {
      toast.error(`Could not connect ${integration.name}`, { description: serverMessage(error) ?? "Try again in a moment." });
    },
  });
}

export type IntegrationOption = { id: string; name: string };

/** The picker's choices (Slack channels, Google calendars), loaded when the picker opens. */
export function useOptions(integration: IntegrationView, enabled: boolean) {
  return useQuery<IntegrationOption[]>({ queryKey: ["/api/integrations", integration.slug, "options"], enabled });
}

export function useSaveSettings(integration: IntegrationView) {
  const queryClient = useQueryClient();
  return useMutation<IntegrationView, Error, Record<string, string>>({
    mutationFn: async (body) => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/settings`, body);
      return (await res.json()) as IntegrationView;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY, exact: true });
      toast.success("Saved", { description: `${integration.name} settings saved.` });
    },
    onError: (error) => {
      toast.error("Could not save", { description: serverMessage(error) ?? "Try again in a moment." });
    },
  });
}

export function useSyncNow(integration: IntegrationView) {
  const queryClient = useQueryClient();
  return useMutation<{ queued: number }, Error, void>({
    mutationFn: async () => {
      const res = await apiRequest("POST", `/api/integrations/${integration.slug}/sync`);
      return (await res.json()) as { queued: number };
    },
    onSuccess: ({ queued }) => {
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(integration.slug) });
      void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY, exact: true });
      toast.success("Sync started", { description: `${queued} call${queued === 1 ? "" : "s"} from the last 30 days are on their way to ${integration.name}.` });
    },
    onError: (error) => {
      toast.error("Could not sync", { description: serverMessage(error) ?? "Try again in a moment." });
    },
  });
}
