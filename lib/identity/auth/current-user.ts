import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { getDb } from "@/lib/platform/database";
import { resolveSession, type SessionUser } from "./session";

export type { SessionUser } from "./session";

/**
 * For server components: the signed-in user of the current request, or null. Resolved once per
 * request (React's cache), however many layouts and pages ask.
 */
export const getCurrentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await resolveSession(await getDb(), new Headers(await headers()));
  return session?.user ?? null;
});
