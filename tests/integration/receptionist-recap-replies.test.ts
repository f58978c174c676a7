import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { POST as inboundRoute } from "@/app/api/emails/inbound/route";
import { PUT as putNotifications } from "@/app/api/settings/notifications/route";
import { emails, tasks } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { doneNumbers, recapReference } from "@/lib/receptionist/recap-replies";
import { buildRecap } from "@/lib/receptionist/recaps";
import { call } from "../helpers/http";
import { registerTestUser, type TestAccount } from "../helpers/accounts";

/**
 * Answering the daily recap by e-mail: the recap numbers its new tasks and names a signed reply
 * address; "done 2" in a reply (posted by the inbound-mail service with the shared secret) marks that
 * task done — only the recap's own organization's tasks, only for its members, only the reply's own
 * words (not the quoted recap). Each test makes its own organizations.
 */
const SECRET = "inbound-secret-for-tests-0123456789";
const mutableEnv = env as { INBOUND_EMAIL_SECRET?: string; INBOUND_EMAIL_ADDRESS?: string };
const original = { secret: env.INBOUND_EMAIL_SECRET, address: env.INBOUND_EMAIL_ADDRESS };

beforeAll(() => {
  mutableEnv.INBOUND_EMAIL_SECRET = SECRET;
  mutableEnv.INBOUND_EMAIL_ADDRESS = "replies@in.example.com";
});
afterAll(async () => {
  mutableEnv.INBOUND_EMAIL_SECRET = original.secret;
  mutableEnv.INBOUND_EMAIL_ADDRESS = original.address;
  await closeDb();
});

const auth = { authorization: `Bearer ${SECRET}` };

async function orgWithRecap(): Promise<{ account: TestAccount; taskIds: string[]; recapId: string; mail: typeof emails.$inferSelect }> {
  const account = await registerTestUser();
  const db = await getDb();
  await call(putNotifications, "PUT", "/api/settings/notifications", { sessionId: account.sessionId, body: { emailNotifications: true } });
  const now = new Date();
  const taskIds: string[] = [];
  // Newest first in the recap: "Call back C" is 1, "B" is 2, "A" is 3.
  for (const [i, who] of ["A", "B", "C"].entries()) {
    const id = crypto.randomUUID();
    taskIds.push(id);
    await db.insert(tasks).values({ id, organizationId: account.organizationId, kind: "callback", title: `Call back ${who}`, contactNumber: "+15555550100", sourceKey: `test:${id}`, createdAt: new Date(now.getTime() - (3 - i) * 60_000) });
  }
  const recap = await buildRecap(db, account.organizationId, new Date(now.getTime() + 1000));
  const [mail] = await db.select().from(emails).where(and(eq(emails.organizationId, account.organizationId), eq(emails.kind, "recap")));
  return { account, taskIds: taskIds.reverse(), recapId: recap!.id, mail };
}

async function statusOf(id: string) {
  const db = await getDb();
  const [t] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, id));
  return t.status;
}

describe("answering the recap by e-mail", () => {
  it("numbers the new tasks and says how to reply; 'done 2' marks the second one done and answers the sender", async () => {
    const { account, taskIds, recapId, mail } = await orgWithRecap();
    const reference = recapReference(recapId);
    expect(mail.text).toContain("  1. Call back C  ");
    expect(mail.text).toContain("  2. Call back B  ");
    expect(mail.text).toContain(`Reply to this e-mail with "done 2" (or "done 1, 3") to mark those new tasks done. Reference: ${reference}`);
    expect(mail.html).toContain("<ol>");

    const reply = await call(inboundRoute, "POST", "/api/emails/inbound", {
      headers: auth,
      body: {
        from: `Owner <${account.email.toUpperCase()}>`,
        to: `replies+${reference}@in.example.com`,
        subject: `Re: ${mail.subject}`,
        text: `done 2\n\nthanks!\n\nOn Tue, Nov 24, 2026 at 6:00 PM Switchboard wrote:\n> ${mail.text.split("\n").join("\n> ")}\n> done 1`,
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ recapId, done: [{ number: 2, taskId: taskIds[1], title: "Call back B" }], unknown: [] });
    expect(await Promise.all(taskIds.map(statusOf))).toEqual(["open", "done", "open"]);
    const db = await getDb();
    const [answer] = await db.select().from(emails).where(and(eq(emails.organizationId, account.organizationId), eq(emails.kind, "recap_reply")));
    expect(answer).toMatchObject({ toAddress: account.email, text: "Marked done:\n2. Call back B" });

    // The reference quoted in the body is enough (a reply that went to a plain address); unknown numbers are named.
    const again = await call(inboundRoute, "POST", "/api/emails/inbound", {
      headers: auth,
      body: { from: account.email, to: "replies@in.example.com", text: `Done 1, 3 and 9\n\n-----Original Message-----\nReference: ${reference}` },
    });
    expect(again.body).toMatchObject({ done: [{ number: 1 }, { number: 3 }], unknown: [9] });
    expect(await Promise.all(taskIds.map(statusOf))).toEqual(["done", "done", "done"]);
  });

  it("refuses without the secret, a forged reference, and a sender from outside the organization", async () => {
    const { account, taskIds, recapId } = await orgWithRecap();
    const stranger = await registerTestUser();
    const reference = recapReference(recapId);
    const body = { from: account.email, to: `replies+${reference}@in.example.com`, text: "done 1" };

    expect((await call(inboundRoute, "POST", "/api/emails/inbound", { body })).status).toBe(401);
    expect((await call(inboundRoute, "POST", "/api/emails/inbound", { headers: { authorization: "Bearer wrong-secret-0123456789" }, body })).status).toBe(401);
    const forged = reference.slice(0, -4) + (reference.endsWith("0000") ? "1111" : "0000");
    expect((await call(inboundRoute, "POST", "/api/emails/inbound", { headers: auth, body: { ...body, to: `replies+${forged}@in.example.com` } })).status).toBe(404);
    expect((await call(inboundRoute, "POST", "/api/emails/inbound", { headers: auth, body: { ...body, from: stranger.email } })).status).toBe(403);
    const invalid = await call(inboundRoute, "POST", "/api/emails/inbound", { headers: auth, body: { to: "x" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toHaveProperty("from");
    expect(await Promise.all(taskIds.map(statusOf))).toEqual(["open", "open", "open"]);

    mutableEnv.INBOUND_EMAIL_SECRET = undefined;
    try {
      expect((await call(inboundRoute, "POST", "/api/emails/inbound", { headers: auth, body })).status).toBe(503);
    } finally {
      mutableEnv.INBOUND_EMAIL_SECRET = SECRET;
    }
  });

  it("reads only the reply's own 'done' lines", () => {
    expect(doneNumbers("done 2")).toEqual([2]);
    expect(doneNumbers("Done: #1, #3 & 4\nDONE 3")).toEqual([1, 3, 4]);
    expect(doneNumbers("finished 5 and 6")).toEqual([5, 6]);
    expect(doneNumbers("I'm done with 2 of them")).toEqual([]);
    expect(doneNumbers("Thanks\n> done 1\nOn Mon, Jan 1 wrote:\ndone 2")).toEqual([]);
  });
});
