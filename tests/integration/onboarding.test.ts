import { GET as getChecklist } from "@/app/api/onboarding/checklist/route";
import { POST as dismiss } from "@/app/api/onboarding/checklist/dismiss/route";
import { POST as createNumber } from "@/app/api/phone-numbers/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { GET as listAssistants } from "@/app/api/voice-assistants/route";
import { organizations } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { eq } from "drizzle-orm";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

const stepsDone = (body: { steps: { id: string; done: boolean }[] }) => Object.fromEntries(body.steps.map((s) => [s.id, s.done]));

describe("/api/onboarding/checklist", () => {
  it("is computed from the organization's data and follows it step by step", async () => {
    const owner = await registerTestUser();
    const first = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: owner.sessionId });
    expect(first.status).toBe(200);
    expect(stepsDone(first.body)).toEqual({ phone_number: false, assistant: false, business_hours: false, test_call: false });
    expect(first.body).toMatchObject({ completed: 0, total: 4, done: false, dismissed: false, show: true });

    const number = await call(createNumber, "POST", "/api/phone-numbers", {
      sessionId: owner.sessionId,
      body: { friendlyName: "Main line", isActive: true },
    });
    expect(number.status).toBe(201);
    const assistants = await call(listAssistants, "GET", "/api/voice-assistants", { sessionId: owner.sessionId });
    const assistantId = assistants.body[0].id;
    await call(patchNumber, "PATCH", `/api/phone-numbers/${number.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: number.body.id },
      body: { assistantId, businessHours: { timezone: "America/Chicago", days: { mon: { open: "08:00", close: "16:00" } } } },
    });

    const later = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: owner.sessionId });
    expect(stepsDone(later.body)).toEqual({ phone_number: true, assistant: true, business_hours: true, test_call: false });
    expect(later.body).toMatchObject({ completed: 3, total: 4, show: true });

    // Another organization's checklist is its own.
    const stranger = await registerTestUser();
    const theirs = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: stranger.sessionId });
    expect(theirs.body.completed).toBe(0);
  });

  it("asks a paid plan for its payment until the plan is active", async () => {
    const owner = await registerTestUser();
    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "pro", subscriptionStatus: "trialing" }).where(eq(organizations.id, owner.organizationId));
    const res = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: owner.sessionId });
    expect(res.body.total).toBe(5);
    expect(stepsDone(res.body).payment_method).toBe(false);
    await db.update(organizations).set({ subscriptionStatus: "active" }).where(eq(organizations.id, owner.organizationId));
    const paid = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: owner.sessionId });
    expect(stepsDone(paid.body).payment_method).toBe(true);
  });

  it("stays closed once dismissed, for that organization only; 401 without a session", async () => {
    const owner = await registerTestUser();
    const other = await registerTestUser();
    const res = await call(dismiss, "POST", "/api/onboarding/checklist/dismiss", { sessionId: owner.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dismissed: true, show: false });
    const again = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: owner.sessionId });
    expect(again.body.show).toBe(false);
    const theirs = await call(getChecklist, "GET", "/api/onboarding/checklist", { sessionId: other.sessionId });
    expect(theirs.body.show).toBe(true);
    expect((await call(getChecklist, "GET", "/api/onboarding/checklist")).status).toBe(401);
    expect((await call(dismiss, "POST", "/api/onboarding/checklist/dismiss")).status).toBe(401);
  });
});
