import { GET, POST } from "@/app/api/cron/jobs/route";
import { closeDb } from "@/lib/platform/database";
import { call } from "@/tests/helpers/http";

afterAll(() => closeDb());

describe("/api/cron/jobs", () => {
  it("answers 401 without the cron secret or with a wrong one", async () => {
    expect((await call(GET, "GET", "/api/cron/jobs")).status).toBe(401);
    expect((await call(POST, "POST", "/api/cron/jobs", { headers: { authorization: "Bearer wrong-secret-wrong" } })).status).toBe(401);
  });

  it("runs due jobs and recurring schedules with the secret", async () => {
    const res = await call(GET, "GET", "/api/cron/jobs", { headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ran: expect.any(Number), failed: 0, scheduled: expect.arrayContaining(["webhook.sweep"]) });
    expect(res.body.ran).toBeGreaterThanOrEqual(1);
    // The route's budget is 20 s and it lets the jobs it started finish: on the run's shared PostgreSQL
    // database every recurring sweep (recaps, retention, rollups) walks every test file's organizations.
  }, 120_000);
});
