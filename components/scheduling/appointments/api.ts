"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import type { BookingSettingsDto } from "@/lib/scheduling/settings";
import type { FindSlotsResult } from "@/lib/scheduling/service";
import type { ResourceDto } from "@/lib/scheduling/resources";
import type { AppointmentView } from "@/lib/scheduling/views";
import type { ServiceDto } from "@/lib/knowledge/services/service";

export type { AppointmentView, BookingSettingsDto, FindSlotsResult, ResourceDto, ServiceDto };

export const APPOINTMENTS_KEY = "/api/appointments";
export const SERVICES_KEY = ["/api/services"] as const;
export const RESOURCES_KEY = ["/api/appointments/resources"] as const;
export const SETTINGS_KEY = ["/api/appointments/settings"] as const;

export function useBookingSettings() {
  return useQuery<BookingSettingsDto>({ queryKey: SETTINGS_KEY });
}

export function useServices() {
  return useQuery<ServiceDto[]>({ queryKey: SERVICES_KEY });
}

export function useResources() {
  return useQuery<ResourceDto[]>({ queryKey: RESOURCES_KEY });
}

export function useAppointments(from: Date | null, to: Date | null) {
  const qs = from && to ? `?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}` : "";
  return useQuery<AppointmentView[]>({ queryKey: [`${APPOINTMENTS_KEY}${qs}`], enabled: Boolean(from && to) });
}

export function useSlots(serviceId: string | null, from: Date | null, to: Date | null, movingAppointmentId?: string) {
  const qs =
    serviceId && from && to
      ? `?serviceId=${encodeURIComponent(serviceId)}&from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}` +
        (movingAppointmentId ? `&excludeAppointmentId=${encodeURIComponent(movingAppointmentId)}` : "")
      : "";
  return useQuery<FindSlotsResult>({ queryKey: [`/api/appointments/availability${qs}`], enabled: Boolean(qs), staleTime: 0 });
}

/** Drops every cached appointment list and slot list (any range). */
export function useInvalidateAppointments() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      predicate: (q) => typeof q.queryKey[0] === "string" && (q.queryKey[0] as string).startsWith(APPOINTMENTS_KEY),
    });
}

/** A mutation that toasts its failure with the server's message. */
export function useApiMutation<TBody, TResult>(
  request: (body: TBody) => Promise<Response>,
  options: { success?: (result: TResult) => string; failure: string; invalidate?: "appointments" | "services" | "resources" | "settings" },
) {
  const queryClient = useQueryClient();
  const invalidateAppointments = useInvalidateAppointments();
  return useMutation<TResult, Error, TBody>({
    mutationFn: async (body) => (await (await request(body)).json()) as TResult,
    onSuccess: async (result) => {
      if (options.invalidate === "appointments") await invalidateAppointments();
      if (options.invalidate === "services") await queryClient.invalidateQueries({ queryKey: SERVICES_KEY });
      if (options.invalidate === "resources") {
        await queryClient.invalidateQueries({ queryKey: RESOURCES_KEY });
        await queryClient.invalidateQueries({ queryKey: SERVICES_KEY });
      }
      if (options.invalidate === "settings") await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
      if (options.success) toast.success(options.success(result));
    },
    onError: (error) => {
      toast.error(options.failure, { description: serverMessage(error) ?? "Please try again." });
    },
  });
}

export const api = {
  createAppointment: (body: unknown) => apiRequest("POST", "/api/appointments", body),
  moveAppointment: ({ id, ...body }: { id: string; start: string; resourceId?: string | null }) =>
    apiRequest("PATCH", `/api/appointments/${encodeURIComponent(id)}`, body),
  cancelAppointment: (id: string) => apiRequest("DELETE", `/api/appointments/${encodeURIComponent(id)}`),
  createService: (body: unknown) => apiRequest("POST", "/api/services", body),
  updateService: ({ id, ...body }: { id: string } & Record<string, unknown>) => apiRequest("PATCH", `/api/services/${encodeURIComponent(id)}`, body),
  deleteService: (id: string) => apiRequest("DELETE", `/api/services/${encodeURIComponent(id)}`),
  createResource: (body: unknown) => apiRequest("POST", "/api/appointments/resources", body),
  archiveResource: (id: string) => apiRequest("DELETE", `/api/appointments/resources/${encodeURIComponent(id)}`),
  updateSettings: (body: unknown) => apiRequest("PATCH", "/api/appointments/settings", body),
  regenerateFeed: () => apiRequest("POST", "/api/appointments/settings/ics-token"),
};
