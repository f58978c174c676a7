import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { fullPageNavigate } from "./utils";
import { clearStoredSessionId, errorStatus, getQueryFn, isUnauthorizedError } from "./api-client";

export const SESSION_EXPIRED_REDIRECT_MS = 1000;

/** Mutations that handle their own 401s (login with a wrong password) set this in `meta`. */
export interface SwitchboardMeta extends Record<string, unknown> {
  skipGlobalUnauthorized?: boolean;
}

let redirectScheduled = false;

function handleGlobalError(error: unknown, meta: SwitchboardMeta | undefined): void {
  if (meta?.skipGlobalUnauthorized || !isUnauthorizedError(error)) return;
  if (typeof window === "undefined" || redirectScheduled) return;
  redirectScheduled = true;
  toast.error("Session Expired", { description: "Please sign in again to continue" });
  clearStoredSessionId();
  window.setTimeout(() => {
    fullPageNavigate("/api/login");
  }, SESSION_EXPIRED_REDIRECT_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => handleGlobalError(error, query.meta as SwitchboardMeta | undefined),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _onMutateResult, mutation) =>
        handleGlobalError(error, mutation.meta as SwitchboardMeta | undefined),
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        // Fewer than 3 retries, none on a 401 (spec §7, §9).
        retry: (failureCount, error) => errorStatus(error) !== 401 && failureCount < 3,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}
