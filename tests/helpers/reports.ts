import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { calls, messages, users } from "@/db/schema";
import { getDb } from "@/lib/platform/database";
import { registerTestUser, type TestAccount } from "./accounts";

/**
 * The set-up the report tests share (CRM Voice, the figures every screen reads, the admin screens):
 * an admin account, and an organization's inbound calls and texts with only what a test cares about
 * spelled out.
 */

/** A fresh user (with their own organization) made a platform admin: CRM Voice and the admin screens are theirs. */
export async function registerTestAdmin(): Promise<TestAccount> {
  const account = await registerTestUser();
  const db = await getDb();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, account.id));
  return { ...account, role: "admin" };
}

type CallRow = typeof calls.$inferInsert;
type MessageRow = typeof messages.$inferInsert;

/** A completed inbound call to the organization; `extra` sets what the test is about (sentiment, time, id). */
export function inboundCall<E extends Partial<CallRow>>(organizationId: string, extra: E = {} as E): CallRow & { id: string } & E {
  return { id: crypto.randomUUID(), organizationId, direction: "inbound", fromNumber: "+14155550100", toNumber: "+14155550199", status: "completed", ...extra };
}

/** A received inbound text ("hi") to the organization. */
export function inboundText<E extends Partial<MessageRow>>(organizationId: string, extra: E = {} as E): MessageRow & { id: string } & E {
  return { id: crypto.randomUUID(), organizationId, direction: "inbound", fromNumber: "+14155550100", toNumber: "+14155550199", body: "hi", status: "received", ...extra };
}

/**
 * One completed inbound call per score (1–5), labelled as the analysis labels it (4–5 positive, 3
 * neutral, 1–2 negative); null is a call not analysed. Returns the calls' ids in order.
 */
export async function insertScoredCalls(organizationId: string, scores: (number | null)[]): Promise<string[]> {
  const label = (score: number) => (score >= 4 ? "positive" : score === 3 ? "neutral" : "negative");
  const rows = scores.map((score) => inboundCall(organizationId, score === null ? {} : { sentimentScore: score, sentiment: label(score) }));
  const db = await getDb();
  await db.insert(calls).values(rows);
  return rows.map((row) => row.id);
}
