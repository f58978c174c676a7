import { POST as register } from "@/app/api/auth/register/route";
import { DELETE as deleteAssistant } from "@/app/api/voice-assistants/[id]/route";
import { GET as listAssistants } from "@/app/api/voice-assistants/route";
import { call, uniqueSuffix } from "./http";

export type TestAccount = {
  sessionId: string;
  id: string;
  email: string;
  username: string;
  password: string;
  organizationId: string;
  role: string;
  /** "name=value" of the session cookie the registration set, for cookie-authenticated calls. */
  cookie: string;
};

/** Registers a fresh user (with their own organization) through the real route. */
export async function registerTestUser(overrides: Partial<{ email: string; username: string; password: string; firstName: string; lastName: string }> = {}): Promise<TestAccount> {
  const suffix = uniqueSuffix();
  const input = {
    email: overrides.email ?? `user${suffix}@example.com`,
    username: overrides.username ?? `user${suffix}`,
    password: overrides.password ?? "secret123",
    firstName: overrides.firstName ?? "Test",
    lastName: overrides.lastName ?? "User",
  };
  const res = await call(register, "POST", "/api/auth/register", { body: input });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="))?.split(";")[0] ?? "";
  return { ...res.body, password: input.password, username: input.username, cookie };
}

/**
 * Every new organization starts with a starter assistant (lib/agents/assistants/starter.ts). Tests of
 * creating assistants from nothing, or of an organization without one, remove it first — through
 * the real routes, as a user would.
 */
export async function removeStarterAssistant(account: TestAccount): Promise<TestAccount> {
  const list = await call(listAssistants, "GET", "/api/voice-assistants", { sessionId: account.sessionId });
  for (const assistant of list.body as { id: string }[]) {
    const res = await call(deleteAssistant, "DELETE", `/api/voice-assistants/${assistant.id}`, { sessionId: account.sessionId, params: { id: assistant.id } });
    if (res.status !== 200) throw new Error(`delete assistant failed: ${res.status} ${res.text}`);
  }
  return account;
}

/** A fresh user whose organization has no assistant yet. */
export async function registerTestUserWithoutAssistants(overrides: Parameters<typeof registerTestUser>[0] = {}): Promise<TestAccount> {
  return removeStarterAssistant(await registerTestUser(overrides));
}
