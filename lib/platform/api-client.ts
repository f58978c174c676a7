/**
 * The browser's shared request behaviour (spec core §7): every call sends the stored session id as
 * a bearer token, always includes cookies, sends a JSON content type only with a body, and turns a
 * non-OK answer into an Error whose message is "STATUS: body".
 */
import type { QueryFunction } from "@tanstack/react-query";

export const SESSION_STORAGE_KEY = "sessionId";

export function getStoredSessionId(): string | null {
  if (typeof window === "undefined") return null;
  try {
    return window.localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (privacy modes); the httpOnly cookie still carries the session.
    return null;
  }
}

export function storeSessionId(sessionId: string): void {
  try {
    window.localStorage.setItem(SESSION_STORAGE_KEY, sessionId);
  } catch {
    // See getStoredSessionId.
  }
}

export function clearStoredSessionId(): void {
  if (typeof window === "undefined") return;
  try {
    window.localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // See getStoredSessionId.
  }
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers();
  if (hasBody) headers.set("Content-Type", "application/json");
  const sessionId = getStoredSessionId();
  if (sessionId) headers.set("Authorization", `Bearer ${sessionId}`);
  return headers;
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/** A server type as its route answers it over JSON: dates arrive as ISO strings. */
export type Jsonified<T> = T extends Date ? string : T extends (infer U)[] ? Jsonified<U>[] : T extends object ? { [K in keyof T]: Jsonified<T[K]> } : T;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    headers: buildHeaders(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return res;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join("/"), {
      headers: buildHeaders(false),
      credentials: "include",
      signal,
    });
    if (options.on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** A 401 is recognised by a message starting "401: " and containing Unauthorized (spec §8). */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/s.test(error.message);
}

/** The HTTP status of an error raised by apiRequest/getQueryFn, or null for other errors. */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : null;
}

/**
 * The server's user-facing message from a "STATUS: body" error, when the body is JSON with a
 * `message`; otherwise null so the caller can show its own fallback.
 */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return null;
  try {
    const parsed: unknown = JSON.parse(match[1]);
    if (parsed && typeof parsed === "object" && "message" in parsed) {
      const message = (parsed as { message: unknown }).message;
      if (typeof message === "string" && message.trim()) return message;
    }
  } catch {
    // Not JSON (e.g. a proxy's HTML error page): no server message to show.
  }
  return null;
}
