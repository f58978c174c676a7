"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorToast } from "@/components/workspace/billing/billing-link";
import { apiRequest, isUnauthorizedError, serverMessage, type Jsonified } from "@/lib/platform/api-client";
import type { CreateAssistantInput, UpdateAssistantInput } from "@/lib/agents/assistants/schema";
import type { VoiceAssistant as ServerVoiceAssistant } from "@/lib/agents/assistants/service";
import type { CallRule } from "@/lib/agents/conversation/call-rules";
import type { PlanLimitStatus } from "@/lib/workspace/billing/limits";

/** An assistant as GET /api/voice-assistants answers it: the service's shape, dates as ISO strings. */
export type VoiceAssistant = Jsonified<ServerVoiceAssistant>;

/** One of the owner's call-handling rules (lib/agents/conversation/call-rules.ts). */
export type CallRuleView = CallRule;

/** ConversationRelay: what may interrupt the assistant while it speaks. */
export type InterruptionsView = ServerVoiceAssistant["interruptions"];

export interface AssistantOption {
  id: string;
  label: string;
  description: string;
}

/** Where the organization stands against its plan's assistant limit (lib/workspace/billing/limits.ts). */
export type AssistantLimit = PlanLimitStatus;

export interface AssistantOptions {
  personalities: AssistantOption[];
  voices: AssistantOption[];
  limit?: AssistantLimit;
}

export const ASSISTANTS_QUERY_KEY = ["/api/voice-assistants"] as const;
export const ASSISTANT_OPTIONS_QUERY_KEY = ["/api/voice-assistants/options"] as const;
const DASHBOARD_STATS_QUERY_KEY = ["/api/dashboard/stats"] as const;

export function useAssistants() {
  return useQuery<VoiceAssistant[]>({ queryKey: ASSISTANTS_QUERY_KEY });
}

export function useAssistantOptions() {
  return useQuery<AssistantOptions>({ queryKey: ASSISTANT_OPTIONS_QUERY_KEY });
}

/** Failure toast per core §8; a 401 is left to the query client's "Session Expired" handler. */
function failureToast(title: string) {
  return (error: Error) => {
    if (isUnauthorizedError(error)) return;
    const description = serverMessage(error);
    errorToast(title, description);
  };
}

function useInvalidateAfterWrite() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ASSISTANTS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_QUERY_KEY }),
      // Its `limit` counts the assistants.
      queryClient.invalidateQueries({ queryKey: ASSISTANT_OPTIONS_QUERY_KEY }),
    ]);
}

export function useCreateAssistant() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation<VoiceAssistant, Error, CreateAssistantInput>({
    mutationFn: async (input) => (await apiRequest("POST", "/api/voice-assistants", input)).json(),
    onSuccess: async () => {
      toast.success("Voice assistant created successfully");
      await invalidate();
    },
    onError: failureToast("Failed to create voice assistant"),
  });
}

export function useUpdateAssistant() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation<VoiceAssistant, Error, { id: string; patch: UpdateAssistantInput }>({
    mutationFn: async ({ id, patch }) =>
      (await apiRequest("PUT", `/api/voice-assistants/${encodeURIComponent(id)}`, patch)).json(),
    onSuccess: async () => {
      toast.success("Voice assistant updated successfully");
      await invalidate();
    },
    onError: failureToast("Failed to update voice assistant"),
  });
}

export function useDeleteAssistant() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation<void, Error, string>({
    mutationFn: async (id) => {
      await apiRequest("DELETE", `/api/voice-assistants/${encodeURIComponent(id)}`);
    },
    onSuccess: async () => {
      toast.success("Voice assistant deleted successfully");
      await invalidate();
    },
    onError: failureToast("Failed to delete voice assistant"),
  });
}

/** The spec's one-click create: fixed defaults, named "Voice Assistant N" (the first free N). */
export function quickCreateInput(existing: readonly Pick<VoiceAssistant, "name">[]): CreateAssistantInput {
  const taken = new Set(existing.map((a) => a.name.trim().toLowerCase()));
  let n = existing.length + 1;
  while (taken.has(`voice assistant ${n}`)) n += 1;
  return {
    name: `Voice Assistant ${n}`,
    description: "Answers your business calls",
    personality: "friendly",
    instructions: "Greet callers warmly, answer their questions, and take a message when you cannot help.",
    voice: "alloy",
    greeting: "",
    isActive: true,
  };
}

/** True when the plan's assistant slots are all taken (counted from the list, fresher than the options). */
export function isAtAssistantLimit(limit: AssistantLimit | undefined, count: number): boolean {
  return limit !== undefined && limit.limit !== null && count >= limit.limit;
}
