import "server-only";
import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { resolveSession, type SessionUser } from "./session";

export type { SessionUser } from "./session";

/** For server components: the signed-in user of the current request, or null. */
export async function getCurrentUser(): Promise<SessionUser | null> {
  const session = await resolveSession(await getDb(), new Headers(await headers()));
  return session?.user ?? null;
}
