"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import type { McpConnectionDto } from "@/lib/agents/mcp/connections";
import type { McpHealth } from "@/lib/agents/mcp/health";
import type { RegisterServiceInput } from "@/lib/agents/mcp/schema";
import type { McpServiceDto, McpServiceStats } from "@/lib/agents/mcp/service";

export const MCP_SERVICES_KEY = ["/api/mcp/services"] as const;
export const MCP_CONNECTIONS_KEY = ["/api/mcp/connections"] as const;
export const MCP_HEALTH_KEY = ["/api/mcp/health"] as const;

/** advanced §9: MCP health every 30 s. */
export const MCP_HEALTH_POLL_MS = 30_000;

export type ServicesResponse = { services: McpServiceDto[]; stats: McpServiceStats };

/** A service registered or switched on but not checked yet: its health is being measured. */
export function isChecking(service: McpServiceDto): boolean {
  return service.isActive && (service.lastCheckedAt === null || Date.parse(service.updatedAt) > Date.parse(service.lastCheckedAt));
}

export function useServices() {
  return useQuery<ServicesResponse>({
    queryKey: MCP_SERVICES_KEY,
    // While a check is pending, look again soon so the row turns healthy (or not) by itself.
    refetchInterval: (query) => (query.state.data?.services.some(isChecking) ? 2000 : MCP_HEALTH_POLL_MS),
  });
}

export function useConnections() {
  return useQuery<{ connections: McpConnectionDto[] }>({ queryKey: MCP_CONNECTIONS_KEY, refetchInterval: MCP_HEALTH_POLL_MS });
}

export function useMcpHealth() {
  return useQuery<McpHealth>({ queryKey: MCP_HEALTH_KEY, refetchInterval: MCP_HEALTH_POLL_MS });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: MCP_SERVICES_KEY }), queryClient.invalidateQueries({ queryKey: MCP_HEALTH_KEY })]);
  };
}

export function useRegisterService() {
  const refresh = useRefresh();
  return useMutation<McpServiceDto, Error, Omit<RegisterServiceInput, "organizationId"> & { organizationId: string | number }>({
    mutationFn: async (body) => (await apiRequest("POST", "/api/mcp/services/register", body)).json(),
    onSuccess: async (service) => {
      toast.success("Service Registered", { description: `${service.name} is registered; its health is being checked.` });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Registration Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

export function useSetServiceActive() {
  const refresh = useRefresh();
  return useMutation<McpServiceDto, Error, { id: string; isActive: boolean }>({
    mutationFn: async ({ id, isActive }) => (await apiRequest("PUT", `/api/mcp/services/${id}/status`, { isActive })).json(),
    onSuccess: async (service) => {
      toast.success("Service Updated", { description: `${service.name} is now ${service.isActive ? "active" : "inactive"}.` });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Update Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

export function useDeleteService() {
  const refresh = useRefresh();
  return useMutation<void, Error, McpServiceDto>({
    mutationFn: async (service) => {
      await apiRequest("DELETE", `/api/mcp/services/${service.id}`);
    },
    onSuccess: async (_data, service) => {
      toast.success("Service Removed", { description: `${service.name} was removed.` });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Delete Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}

export function useCheckService() {
  const refresh = useRefresh();
  return useMutation<McpServiceDto, Error, string>({
    mutationFn: async (id) => (await apiRequest("POST", `/api/mcp/services/${id}/check`)).json(),
    onSuccess: async (service) => {
      if (service.healthStatus === "healthy") toast.success("Service is healthy", { description: `${service.name} answered in ${service.latencyMs} ms.` });
      else toast.error("Service is unhealthy", { description: service.lastError ?? "It did not answer." });
      await refresh();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error("Check Failed", { description: serverMessage(error) ?? error.message });
    },
  });
}
