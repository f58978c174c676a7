"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/platform/api-client";
import type { CreatePhoneNumberInput, UpdatePhoneNumberInput } from "@/lib/phone/numbers/schema";
import type { PhoneNumberDto } from "@/lib/phone/numbers/service";
import type { AvailableNumber } from "@/lib/platform/providers/telephony/interface";

export type PhoneNumber = PhoneNumberDto;
export type AvailableNumbers = { provider: "twilio" | "simulated"; areaCode: string | null; numbers: AvailableNumber[] };
export type AssistantOption = { id: string; name: string; isActive: boolean };

export const PHONE_NUMBERS_QUERY_KEY = ["/api/phone-numbers"] as const;
const DASHBOARD_STATS_QUERY_KEY = ["/api/dashboard/stats"] as const;

export function usePhoneNumbers() {
  return useQuery<PhoneNumber[]>({ queryKey: PHONE_NUMBERS_QUERY_KEY });
}

/**
 * Numbers on offer for an area code. The key sits under ["/api/phone-numbers"] so that invalidating
 * the list after a purchase also drops stale search results. `null` = not searched yet.
 */
export function useAvailableNumbers(areaCode: string | null) {
  const path = areaCode ? `available?areaCode=${encodeURIComponent(areaCode)}&limit=10` : "available?limit=10";
  return useQuery<AvailableNumbers>({
    queryKey: [...PHONE_NUMBERS_QUERY_KEY, path],
    enabled: areaCode !== null,
    retry: false,
  });
}

export function useVoiceAssistantOptions(enabled: boolean) {
  return useQuery<AssistantOption[]>({ queryKey: ["/api/voice-assistants"], enabled });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: PHONE_NUMBERS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_QUERY_KEY }),
    ]);
}

export function useCreatePhoneNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    // The add flow shows its own "Unauthorized" toast and redirect (spec §8), not the global one.
    meta: { skipGlobalUnauthorized: true },
    mutationFn: async (input: CreatePhoneNumberInput) =>
      (await (await apiRequest("POST", "/api/phone-numbers", input)).json()) as PhoneNumber,
    onSuccess: () => invalidate(),
  });
}

export function useUpdatePhoneNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, ...input }: UpdatePhoneNumberInput & { id: string }) =>
      (await (await apiRequest("PATCH", `/api/phone-numbers/${encodeURIComponent(id)}`, input)).json()) as PhoneNumber,
    onSuccess: () => invalidate(),
  });
}

export function useDeletePhoneNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", `/api/phone-numbers/${encodeURIComponent(id)}`);
      return id;
    },
    onSuccess: () => invalidate(),
  });
}
