"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import type { AdjustCreditsInput, CreateUserInput, UpdateUserInput } from "@/lib/consoles/admin/schema";
import type { AdminAnalytics, AdminOrganization, AdminStats, AdminUser, SystemStats } from "@/lib/consoles/admin/service";
import { isAdminRole } from "@/lib/identity/auth/roles";
import { useAuth } from "@/lib/identity/auth/use-auth";

// The shapes of the /api/admin/* answers (docs/api.md#admin) are typed once, by the service that
// builds them (type-only imports: no server code here).
export type { AdminAnalytics, AdminOrganization, AdminStats, AdminUser, SystemStats };

export interface AdminUsersPage {
  users: AdminUser[];
  nextCursor: string | null;
}

export const ADMIN_STATS_KEY = ["/api/admin/stats"] as const;
export const ADMIN_USERS_KEY = ["/api/admin/users"] as const;
export const ADMIN_ORGANIZATIONS_KEY = ["/api/admin/organizations"] as const;
export const ADMIN_ANALYTICS_KEY = ["/api/admin/analytics"] as const;
export const ADMIN_SYSTEM_KEY = ["/api/admin/system-stats"] as const;

/** Data is fetched only for admin and master admin (core §6), whatever the route guards did. */
export function useIsAdmin(): boolean {
  const { user } = useAuth();
  return user ? isAdminRole(user.role) : false;
}

export function useAdminStats() {
  return useQuery<AdminStats>({ queryKey: ADMIN_STATS_KEY, enabled: useIsAdmin() });
}

export function useAdminOrganizations(enabled = true) {
  return useQuery<AdminOrganization[]>({ queryKey: ADMIN_ORGANIZATIONS_KEY, enabled: useIsAdmin() && enabled });
}

export function useAdminAnalytics(enabled = true) {
  return useQuery<AdminAnalytics>({ queryKey: ADMIN_ANALYTICS_KEY, enabled: useIsAdmin() && enabled });
}

export function useSystemStats(enabled = true) {
  return useQuery<SystemStats>({ queryKey: ADMIN_SYSTEM_KEY, enabled: useIsAdmin() && enabled });
}

/** Users, keyed by search term and role filter (advanced §7), 25 per page. */
export function useAdminUsers(search: string, role: string) {
  return useInfiniteQuery({
    queryKey: [...ADMIN_USERS_KEY, search, role],
    enabled: useIsAdmin(),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams({ limit: "25" });
      if (search.trim()) query.set("search", search.trim());
      if (role !== "all") query.set("role", role);
      if (pageParam) query.set("cursor", pageParam);
      return (await (await apiRequest("GET", `/api/admin/users?${query.toString()}`)).json()) as AdminUsersPage;
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Failure toast (advanced §8) with the server's message; a 401 is left to the Session Expired handler. */
function failureToast(title: string) {
  return (error: Error) => {
    if (isUnauthorizedError(error)) return;
    const description = serverMessage(error) ?? "Please try again.";
    toast.error(title, { description });
  };
}

function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [ADMIN_USERS_KEY, ADMIN_STATS_KEY, ADMIN_ORGANIZATIONS_KEY, ADMIN_ANALYTICS_KEY, ADMIN_SYSTEM_KEY].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useUpdateUser() {
  const invalidate = useInvalidateAdmin();
  return useMutation<AdminUser, Error, { id: string; patch: UpdateUserInput }>({
    mutationFn: async ({ id, patch }) => (await apiRequest("PUT", `/api/admin/users/${encodeURIComponent(id)}`, patch)).json(),
    onSuccess: async (user) => {
      toast.success("User Updated", { description: `${user.email} has been updated.` });
      await invalidate();
    },
    onError: failureToast("Update Failed"),
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateAdmin();
  return useMutation<void, Error, AdminUser>({
    mutationFn: async (user) => {
      await apiRequest("DELETE", `/api/admin/users/${encodeURIComponent(user.id)}`);
    },
    onSuccess: async (_data, user) => {
      toast.success("User Deleted", { description: `${user.email} has been permanently deleted.` });
      await invalidate();
    },
    onError: failureToast("Delete Failed"),
  });
}

export function useAdjustCredits() {
  const invalidate = useInvalidateAdmin();
  return useMutation<{ balance: number }, Error, AdjustCreditsInput>({
    mutationFn: async (input) => (await apiRequest("POST", "/api/admin/adjust-credits", input)).json(),
    onSuccess: async ({ balance }) => {
      toast.success("Credits Adjusted", { description: `The organization's balance is now ${balance.toLocaleString("en-US")} credits.` });
      await invalidate();
    },
    onError: failureToast("Adjustment Failed"),
  });
}

export function useCreateUser() {
  const invalidate = useInvalidateAdmin();
  return useMutation<AdminUser, Error, CreateUserInput>({
    mutationFn: async (input) => (await apiRequest("POST", "/api/admin/users", input)).json(),
    onSuccess: async (user) => {
      toast.success("User Created", { description: `${user.email} can now sign in.` });
      await invalidate();
    },
    onError: failureToast("Creation Failed"),
  });
}
