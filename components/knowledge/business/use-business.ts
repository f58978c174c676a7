"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, getStoredSessionId } from "@/lib/platform/api-client";
import type { ImportedFact, ImportFactInput } from "@/lib/knowledge/business-profile/facts";
import type { BusinessProfileInput } from "@/lib/knowledge/business-profile/schema";
import type { BusinessProfileView } from "@/lib/knowledge/business-profile/service";
import type { ImportResult } from "@/lib/knowledge/business-profile/import/service";
import type { KnowledgeGapDto } from "@/lib/knowledge/gaps/service";
import type { CreateServiceInput, UpdateServiceInput } from "@/lib/knowledge/services/schema";
import type { ServiceDto } from "@/lib/knowledge/services/service";

export type BusinessProfile = BusinessProfileView;
export type Service = ServiceDto;
export type KnowledgeGap = KnowledgeGapDto;
export type GapList = { items: KnowledgeGap[]; counts: { open: number; answered: number; dismissed: number } };
export type { ImportedFact, ImportResult };

export const BUSINESS_PROFILE_QUERY_KEY = ["/api/business-profile"] as const;
export const SERVICES_QUERY_KEY = ["/api/services"] as const;
export const OPEN_GAPS_QUERY_KEY = ["/api/knowledge-gaps?status=open"] as const;

export function useBusinessProfile() {
  return useQuery<BusinessProfile>({ queryKey: BUSINESS_PROFILE_QUERY_KEY });
}

export function useOpenKnowledgeGaps() {
  return useQuery<GapList>({ queryKey: OPEN_GAPS_QUERY_KEY });
}

function useInvalidateKnowledge() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: BUSINESS_PROFILE_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY }),
      queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("/api/knowledge-gaps") }),
    ]);
}

export function useSaveBusinessProfile() {
  const invalidate = useInvalidateKnowledge();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: BusinessProfileInput) => (await (await apiRequest("PUT", "/api/business-profile", input)).json()) as BusinessProfile,
    onSuccess: async (saved) => {
      queryClient.setQueryData(BUSINESS_PROFILE_QUERY_KEY, saved);
      await invalidate();
    },
  });
}

export function useCreateService() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async (input: CreateServiceInput) => (await (await apiRequest("POST", "/api/services", input)).json()) as Service,
    onSuccess: () => invalidate(),
  });
}

export function useUpdateService() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async ({ id, ...input }: UpdateServiceInput & { id: string }) =>
      (await (await apiRequest("PATCH", `/api/services/${encodeURIComponent(id)}`, input)).json()) as Service,
    onSuccess: () => invalidate(),
  });
}

export function useDeleteService() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async (id: string) => (await apiRequest("DELETE", `/api/services/${encodeURIComponent(id)}`)).json(),
    onSuccess: () => invalidate(),
  });
}

export function useAnswerGap() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async ({ id, answer, question }: { id: string; answer: string; question?: string }) =>
      (await (await apiRequest("POST", `/api/knowledge-gaps/${encodeURIComponent(id)}/answer`, { answer, ...(question ? { question } : {}) })).json()) as KnowledgeGap,
    onSuccess: () => invalidate(),
  });
}

export function useDismissGap() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async (id: string) => (await (await apiRequest("POST", `/api/knowledge-gaps/${encodeURIComponent(id)}/dismiss`)).json()) as KnowledgeGap,
    onSuccess: () => invalidate(),
  });
}

export type ImportRequest = { kind: "url"; url: string } | { kind: "file"; file: File } | { kind: "text"; text: string };

/** POST /api/business-profile/import: JSON for a website or pasted text, multipart for a file. */
async function runImport(request: ImportRequest): Promise<ImportResult> {
  if (request.kind === "url") return (await apiRequest("POST", "/api/business-profile/import", { url: request.url })).json();
  if (request.kind === "text") return (await apiRequest("POST", "/api/business-profile/import", { text: request.text })).json();
  const form = new FormData();
  form.append("file", request.file, request.file.name);
  const headers = new Headers();
  const sessionId = getStoredSessionId();
  if (sessionId) headers.set("Authorization", `Bearer ${sessionId}`);
  const res = await fetch("/api/business-profile/import", { method: "POST", body: form, headers, credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return res.json();
}

export function useImport() {
  return useMutation({ mutationFn: runImport });
}

export function useApplyImport() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: async (facts: ImportFactInput[]) =>
      (await (await apiRequest("POST", "/api/business-profile/import/apply", { facts })).json()) as { applied: Record<string, number>; profile: BusinessProfile },
    onSuccess: () => invalidate(),
  });
}
