import "server-only";
import { and, count, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantReplies, calls, organizations, phoneNumbers, voiceAssistants } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";
import { getPlan } from "@/lib/workspace/billing/plans";

/**
 * The dashboard's setup checklist for a new organization, computed from its data every time (no
 * step is ticked by hand): a phone number, an assistant answering it, business hours, a test call
 * (a call or a voice test), and on paid plans a payment method. It shows until every step is done
 * or the owner dismisses it.
 */
export type SetupStepId = "phone_number" | "assistant" | "business_hours" | "test_call" | "payment_method";
export type SetupStep = { id: SetupStepId; label: string; description: string; done: boolean; href: string };
export type SetupChecklist = { steps: SetupStep[]; completed: number; total: number; done: boolean; dismissed: boolean; show: boolean };

export async function getSetupChecklist(db: Db, organizationId: string): Promise<SetupChecklist> {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  const [[numbers], [answered], [numbersWithHours], [assistants], [callRows], [tests]] = await Promise.all([
    db.select({ n: count() }).from(phoneNumbers).where(eq(phoneNumbers.organizationId, organizationId)),
    db
      .select({ n: count() })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), isNotNull(phoneNumbers.assistantId))),
    db
      .select({ n: count() })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), isNotNull(phoneNumbers.businessHours))),
    db.select({ n: count() }).from(voiceAssistants).where(eq(voiceAssistants.organizationId, organizationId)),
    db.select({ n: count() }).from(calls).where(eq(calls.organizationId, organizationId)),
    db
      .select({ n: count() })
      .from(assistantReplies)
      .where(and(eq(assistantReplies.organizationId, organizationId), eq(assistantReplies.source, "voice_test"))),
  ]);
  const weekly = org.businessProfile.weeklyHours ?? {};
  const profileHours = Object.values(weekly).some((ranges) => (ranges?.length ?? 0) > 0) || Boolean(org.businessProfile.hours?.trim());

  const steps: SetupStep[] = [
    {
      id: "phone_number",
      label: "Get a phone number",
      description: "Pick a number callers will dial.",
      done: numbers.n > 0,
      href: "/phone-numbers",
    },
    {
      id: "assistant",
      label: "Let an assistant answer it",
      description: assistants.n > 0 ? "Assign your assistant to the number." : "Create an assistant and assign it to the number.",
      done: answered.n > 0,
      href: answered.n === 0 && numbers.n > 0 && assistants.n > 0 ? "/phone-numbers" : "/voice-assistants",
    },
    {
      id: "business_hours",
      label: "Set your business hours",
      description: "So callers hear when you are open.",
      done: profileHours || numbersWithHours.n > 0,
      href: "/settings/business",
    },
    {
      id: "test_call",
      label: "Try a test call",
      description: "Hear your assistant before your customers do.",
      done: callRows.n > 0 || tests.n > 0,
      href: "/voice-test",
    },
  ];
  if (getPlan(org.subscriptionTier).price > 0) {
    steps.push({
      id: "payment_method",
      label: "Add a payment method",
      description: "Your plan starts once it is paid for.",
      // The same rule as Billing's "payment needed": a paid plan is paid for once it is active.
      done: org.subscriptionStatus === "active",
      href: "/billing",
    });
  }
  const completed = steps.filter((s) => s.done).length;
  const done = completed === steps.length;
  const dismissed = org.setupChecklistDismissedAt !== null;
  return { steps, completed, total: steps.length, done, dismissed, show: !done && !dismissed };
}

/** The owner closes the checklist; it stays closed for the organization. Idempotent. */
export async function dismissSetupChecklist(db: Db, organizationId: string): Promise<SetupChecklist> {
  await db
    .update(organizations)
    .set({ setupChecklistDismissedAt: new Date() })
    .where(eq(organizations.id, organizationId));
  return getSetupChecklist(db, organizationId);
}
