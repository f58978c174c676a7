/**
 * Issue 26 §6: every limit reserves the attempt atomically before checking, so a burst of
 * simultaneous requests gets exactly `limit` through — failed sign-ins, wrong current passwords in
 * Settings, registrations per address and the public demo chat. Runs on PGlite by default and on
 * PostgreSQL with DATABASE_URL (the pool's connections really race there).
 */
import { POST as login } from "@/app/api/auth/login/route";
import { POST as changePasswordRoute } from "@/app/api/settings/password/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { LOGIN_FAILURE_LIMIT } from "@/lib/identity/auth/login-throttle";
import { assertRegistrationAllowed } from "@/lib/identity/auth/service";
import { env } from "@/lib/platform/env";
import { countHits, hitRateLimit } from "@/lib/platform/http/rate-limit";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { DEMO_RATE_LIMIT, DEMO_RATE_LIMIT_MESSAGE } from "@/lib/phone/voice/demo";
import { registerTestUser } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

jest.setTimeout(180_000);
afterAll(() => closeDb());

const statuses = async (requests: Promise<{ status: number }>[]) => {
  const all = await Promise.all(requests);
  const tally: Record<number, number> = {};
  for (const r of all) tally[r.status] = (tally[r.status] ?? 0) + 1;
  return tally;
};

const settle = async (requests: Promise<unknown>[]) => {
  const all = await Promise.allSettled(requests);
  return { passed: all.filter((r) => r.status === "fulfilled").length, refused: all.filter((r) => r.status === "rejected" && (r.reason as { status?: number }).status === 429).length };
};

it(`checks exactly ${LOGIN_FAILURE_LIMIT} of 40 simultaneous wrong passwords from 40 addresses`, async () => {
  const account = await registerTestUser();
  const tally = await statuses(
    Array.from({ length: 40 }, (_, i) =>
      call(login, "POST", "/api/auth/login", {
        body: { email: account.email, password: `wrong-${i}` },
        headers: { [PEER_ADDRESS_HEADER]: `198.19.${uniqueSuffix().length % 200}.${i + 1}` },
      }),
    ),
  );
  expect(tally).toEqual({ 401: LOGIN_FAILURE_LIMIT, 429: 40 - LOGIN_FAILURE_LIMIT });
});

it(`checks exactly ${LOGIN_FAILURE_LIMIT} of 30 simultaneous wrong current passwords in Settings`, async () => {
  const account = await registerTestUser();
  const tally = await statuses(
    Array.from({ length: 30 }, (_, i) =>
      call(changePasswordRoute, "POST", "/api/settings/password", {
        sessionId: account.sessionId,
        body: { currentPassword: `wrong-${i}`, newPassword: "another-secret-123", confirmPassword: "another-secret-123" },
      }),
    ),
  );
  expect(tally).toEqual({ 400: LOGIN_FAILURE_LIMIT, 429: 30 - LOGIN_FAILURE_LIMIT });
});

it(`lets exactly ${env.REGISTRATIONS_PER_IP_PER_HOUR} of 20 simultaneous registrations from one address through`, async () => {
  const db = await getDb();
  const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}-${uniqueSuffix()}`;
  expect(await settle(Array.from({ length: 20 }, () => assertRegistrationAllowed(db, ip)))).toEqual({
    passed: env.REGISTRATIONS_PER_IP_PER_HOUR,
    refused: 20 - env.REGISTRATIONS_PER_IP_PER_HOUR,
  });
});

it(`lets exactly ${DEMO_RATE_LIMIT.limit} of 40 simultaneous demo chat turns from one address through`, async () => {
  const db = await getDb();
  const key = `voice-demo:ip:192.0.2.${uniqueSuffix()}`;
  const result = await settle(Array.from({ length: 40 }, () => hitRateLimit(db, key, DEMO_RATE_LIMIT.limit, DEMO_RATE_LIMIT.windowMs, DEMO_RATE_LIMIT_MESSAGE)));
  expect(result).toEqual({ passed: DEMO_RATE_LIMIT.limit, refused: 40 - DEMO_RATE_LIMIT.limit });
  expect(await countHits(db, key, DEMO_RATE_LIMIT.windowMs)).toBe(DEMO_RATE_LIMIT.limit);
});
