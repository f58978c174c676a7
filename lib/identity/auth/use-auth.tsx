"use client";

import * as React from "react";
import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryFunction,
  type UseMutationResult,
} from "@tanstack/react-query";
import type { Role } from "./roles";
import type { SessionHint } from "./session-hint";
import type { LoginInput, RegisterInput } from "./schemas";
import { apiRequest, clearStoredSessionId, getQueryFn, getStoredSessionId, storeSessionId } from "@/lib/platform/api-client";
import { fullPageNavigate } from "@/lib/platform/utils";

export const CURRENT_USER_QUERY_KEY = ["/api/auth/me"] as const;

export interface AuthUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  permissions: string[];
}

interface SessionResponse extends AuthUser {
  sessionId: string;
}

interface AuthContextValue {
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  loginMutation: UseMutationResult<AuthUser, Error, LoginInput>;
  registerMutation: UseMutationResult<AuthUser, Error, RegisterInput>;
  logoutMutation: UseMutationResult<void, Error, void>;
}

const AuthContext = React.createContext<AuthContextValue | null>(null);

const fetchMe = getQueryFn<AuthUser>({ on401: "returnNull" });

function subscribeToStorage(onChange: () => void) {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/** GET /api/auth/me; a 401 means signed out and also drops a stale stored session id (spec §4). */
const fetchCurrentUser: QueryFunction<AuthUser | null> = async (context) => {
  const user = await fetchMe(context);
  if (user === null) clearStoredSessionId();
  return user;
};

function toUser(session: SessionResponse): AuthUser {
  const { id, email, firstName, lastName, role, permissions } = session;
  return { id, email, firstName, lastName, role, permissions };
}

/**
 * `sessionHint` comes from the server (app/layout.tsx): "signed-out" when the request carried no
 * session cookie. Then the state starts as signed out — the server renders the signed-out page, not
 * the spinner — and /api/auth/me is asked only if the browser still holds a stored session id (a
 * bearer without the cookie), during which the state is loading again.
 *
 * `initialUser` is the user the server already resolved from the cookie (app/layout.tsx): then the
 * state starts signed in, the server renders the signed-in page itself, and no spinner shows.
 */
export function AuthProvider({
  children,
  sessionHint = "unknown",
  initialUser = null,
}: {
  children: React.ReactNode;
  sessionHint?: SessionHint;
  initialUser?: AuthUser | null;
}) {
  const queryClient = useQueryClient();
  // The server cannot see local storage: its snapshot (and so the hydrating render) says "none".
  const hasStoredSession = React.useSyncExternalStore(subscribeToStorage, () => getStoredSessionId() !== null, () => false);

  const { data, error, isLoading } = useQuery({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: fetchCurrentUser,
    // Without a cookie and without a stored id nobody is signed in: nothing to ask, nothing to wait for.
    enabled: sessionHint !== "signed-out" || hasStoredSession,
    // The server's answer for this request: nothing to wait for (it stays fresh like any query here).
    initialData: initialUser ?? undefined,
  });

  React.useEffect(() => {
    // Spec §8: an auth check failure is only logged; the visitor is treated as signed out.
    if (error) console.error("Authentication check failed:", error);
  }, [error]);

  const onSession = React.useCallback(
    (session: SessionResponse): AuthUser => {
      storeSessionId(session.sessionId);
      const user = toUser(session);
      queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
      return user;
    },
    [queryClient],
  );

  const loginMutation = useMutation<AuthUser, Error, LoginInput>({
    mutationFn: async (credentials) => {
      const res = await apiRequest("POST", "/api/auth/login", credentials);
      return onSession((await res.json()) as SessionResponse);
    },
    meta: { skipGlobalUnauthorized: true },
  });

  const registerMutation = useMutation<AuthUser, Error, RegisterInput>({
    mutationFn: async (input) => {
      const res = await apiRequest("POST", "/api/auth/register", input);
      return onSession((await res.json()) as SessionResponse);
    },
    meta: { skipGlobalUnauthorized: true },
  });

  const logoutMutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest("POST", "/api/auth/logout");
    },
    meta: { skipGlobalUnauthorized: true },
    onError: (err) => console.error("Sign out failed:", err),
    // Sign out clears the stored id and the user even when the call fails (spec §4).
    onSettled: () => {
      clearStoredSessionId();
      queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
      fullPageNavigate("/");
    },
  });

  const user = data ?? null;
  const value = React.useMemo<AuthContextValue>(
    () => ({
      user,
      isLoading,
      isAuthenticated: user !== null,
      loginMutation,
      registerMutation,
      logoutMutation,
    }),
    [user, isLoading, loginMutation, registerMutation, logoutMutation],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = React.useContext(AuthContext);
  if (!context) throw new Error("useAuth must be used inside <AuthProvider>");
  return context;
}

/** Display helpers shared by the header and the dashboard (spec §2 defaults). */
export function displayFirstName(user: Pick<AuthUser, "firstName"> | null): string {
  return user?.firstName?.trim() || "User";
}

export function avatarInitial(user: Pick<AuthUser, "firstName" | "email"> | null): string {
  const source = user?.firstName?.trim() || user?.email?.trim() || "U";
  return source.charAt(0).toUpperCase();
}
