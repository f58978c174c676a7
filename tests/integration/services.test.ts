import { GET as listRoute, POST as createRoute } from "@/app/api/services/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/services/[id]/route";
import { POST as createResourceRoute } from "@/app/api/appointments/resources/route";
import { closeDb } from "@/lib/platform/database";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  a = await registerTestUser();
  b = await registerTestUser();
});

describe("/api/services", () => {
  it("creates, lists, reads, updates and deletes a service with its staff", async () => {
    const staff = await call(createResourceRoute, "POST", "/api/appointments/resources", { sessionId: a.sessionId, body: { name: "Anna" } });
    expect(staff.status).toBe(201);
    const created = await call(createRoute, "POST", "/api/services", {
      sessionId: a.sessionId,
      body: { name: "Colour", durationMinutes: 90, bufferAfterMinutes: 15, priceCents: 8000, resourceIds: [staff.body.id] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Colour", durationMinutes: 90, bufferBeforeMinutes: 0, bufferAfterMinutes: 15, priceCents: 8000, bookable: true, isActive: true, resourceIds: [staff.body.id] });
    const list = await call(listRoute, "GET", "/api/services", { sessionId: a.sessionId });
    expect(list.body.map((s: any) => s.id)).toEqual([created.body.id]);
    const patched = await call(patchRoute, "PATCH", `/api/services/${created.body.id}`, { sessionId: a.sessionId, params: { id: created.body.id }, body: { durationMinutes: 60, resourceIds: [] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ durationMinutes: 60, resourceIds: [] });
    expect((await call(getRoute, "GET", "/x", { sessionId: a.sessionId, params: { id: created.body.id } })).body.durationMinutes).toBe(60);
    expect((await call(deleteRoute, "DELETE", "/x", { sessionId: a.sessionId, params: { id: created.body.id } })).body).toEqual({ success: true, id: created.body.id });
    expect((await call(getRoute, "GET", "/x", { sessionId: a.sessionId, params: { id: created.body.id } })).status).toBe(404);
  });

  it("answers 400 naming each bad field", async () => {
    const res = await call(createRoute, "POST", "/api/services", { sessionId: a.sessionId, body: { name: "", durationMinutes: 2, bufferAfterMinutes: -1, priceCents: 1.5 } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({
      name: "Service name is required",
      durationMinutes: "Duration must be at least 5 minutes",
      bufferAfterMinutes: "Buffer after must be at least 0 minutes",
      priceCents: "Price must be a whole number of cents",
    });
    const empty = await call(patchRoute, "PATCH", "/x", { sessionId: a.sessionId, params: { id: "nope" }, body: {} });
    expect(empty.status).toBe(400);
  });

  it("refuses another organization's staff, and hides another organization's service (404)", async () => {
    const theirs = await call(createResourceRoute, "POST", "/api/appointments/resources", { sessionId: b.sessionId, body: { name: "Ben" } });
    const res = await call(createRoute, "POST", "/api/services", { sessionId: a.sessionId, body: { name: "Cut", resourceIds: [theirs.body.id] } });
    expect(res.status).toBe(400);
    expect(res.body.errors.resourceIds).toBe("Choose staff or rooms from your own list");
    const mine = await call(createRoute, "POST", "/api/services", { sessionId: a.sessionId, body: { name: "Shave" } });
    for (const [handler, method] of [
      [getRoute, "GET"],
      [patchRoute, "PATCH"],
      [deleteRoute, "DELETE"],
    ] as const) {
      const r = await call(handler, method, "/x", { sessionId: b.sessionId, params: { id: mine.body.id }, body: method === "PATCH" ? { name: "Stolen" } : undefined });
      expect(r.status).toBe(404);
    }
    expect((await call(getRoute, "GET", "/x", { sessionId: a.sessionId, params: { id: mine.body.id } })).body.name).toBe("Shave");
  });

  it("answers 401 without a session", async () => {
    expect((await call(listRoute, "GET", "/api/services")).status).toBe(401);
    expect((await call(createRoute, "POST", "/api/services", { body: { name: "x" } })).status).toBe(401);
  });
});
