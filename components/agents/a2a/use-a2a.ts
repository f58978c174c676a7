"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import type { A2aMessageDto } from "@/lib/agents/a2a/messages";
import type { A2aAgentDto, A2aStats } from "@/lib/agents/a2a/service";

export const A2A_AGENTS_KEY = ["/api/a2a/agents"] as const;
export const A2A_STATS_KEY = ["/api/a2a/stats"] as const;
export const A2A_MESSAGES_KEY = ["/api/a2a/messages"] as const;
export const A2A_ENDPOINT_KEY = ["/api/a2a/endpoint"] as const;

/** advanced §9: agents every 10 s, stats every 5 s. */
export const AGENTS_POLL_MS = 10_000;
export const STATS_POLL_MS = 5_000;

export type AgentEndpoint = {
  url: string;
  cardUrl: string;
  protocolVersion: string;
  protocolBinding: string;
  streaming: boolean;
  skills: { id: string; name: string; description: string }[];
};

/** An agent with an endpoint whose card has not been read yet. */
const awaitingCheck = (agent: A2aAgentDto) => Boolean(agent.endpoint) && agent.lastCheckedAt === null;

export function useAgents() {
  return useQuery<{ agents: A2aAgentDto[] }>({
    queryKey: A2A_AGENTS_KEY,
    refetchInterval: (query) => (query.state.data?.agents.some(awaitingCheck) ? 2000 : AGENTS_POLL_MS),
  });
}

export function useA2aStats() {
  return useQuery<A2aStats>({ queryKey: A2A_STATS_KEY, refetchInterval: STATS_POLL_MS });
}

export function useA2aMessages() {
  return useQuery<{ messages: A2aMessageDto[] }>({
    queryKey: A2A_MESSAGES_KEY,
    refetchInterval: (query) => (query.state.data?.messages.some((m) => m.status === "queued" || (m.status === "delivered" && m.type === "request")) ? 2000 : AGENTS_POLL_MS),
  });
}

export function useAgentEndpoint() {
  return useQuery<AgentEndpoint>({ queryKey: A2A_ENDPOINT_KEY, staleTime: Infinity });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([A2A_AGENTS_KEY, A2A_STATS_KEY, A2A_MESSAGES_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}

export type CreateAgentBody = { name: string; capabilities: string[]; endpoint?: string; organizationId: string | number; metadata: Record<string, unknown> };

export function useCreateAgent() {
  const refresh = useRefresh();
  return useMutation<A2aAgentDto, Error, CreateAgentBody>({
    mutationFn: async (body) => (await apiRequest("POST", "/api/a2a/agents", body)).json(),
    onSuccess: async (agent) => {
      toast.success("Agent Created", {
        description: agent.endpoint ? `${agent.name} is registered; its card is being checked.` : `${agent.name} is registered. Without an endpoint it stays offline.`,
      });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Creation Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

export function useDeleteAgent() {
  const refresh = useRefresh();
  return useMutation<void, Error, A2aAgentDto>({
    mutationFn: async (agent) => {
      await apiRequest("DELETE", `/api/a2a/agents/${agent.id}`);
    },
    onSuccess: async (_data, agent) => {
      toast.success("Agent Removed", { description: `${agent.name} was removed.` });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Delete Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

export type SendBody = { targetAgentId: string; type: "request" | "notify"; payload: Record<string, unknown>; organizationId: number };

export function useSendMessage() {
  const refresh = useRefresh();
  return useMutation<A2aMessageDto, Error, SendBody>({
    mutationFn: async (body) => (await apiRequest("POST", `/api/a2a/agents/${body.targetAgentId}/message`, body)).json(),
    onSuccess: async () => {
      toast.success("Message Sent", { description: "The A2A message has been queued for delivery." });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Send Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}
