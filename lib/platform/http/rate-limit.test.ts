import { closeDb, getDb } from "@/lib/platform/database";
import { hitRateLimit } from "./rate-limit";

afterAll(() => closeDb());

it("allows `limit` hits per window, then answers 429 with Retry-After", async () => {
  const db = await getDb();
  const key = `test:${Math.random()}`;
  const now = new Date();
  for (let i = 0; i < 3; i++) await hitRateLimit(db, key, 3, 60_000, "slow down", now);
  await expect(hitRateLimit(db, key, 3, 60_000, "slow down", now)).rejects.toMatchObject({
    status: 429,
    message: "slow down",
    headers: { "Retry-After": "60" },
  });
  await expect(hitRateLimit(db, key, 3, 60_000, "slow down", new Date(now.getTime() + 61_000))).resolves.toBeUndefined();
});
