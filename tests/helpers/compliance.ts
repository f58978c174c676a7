import { complianceSettings } from "@/db/schema";
import { getDb } from "@/lib/platform/database";

/**
 * Switches the disclosure notice, whole-call recording and HIPAA mode off for an organization whose calls test something
 * else (routing, booking, voicemail, alerts): a business in New York (one-party consent; the simulated
 * carrier's numbers are often in California, which would require the notice) whose test callers
 * (+1 555 …) are in no state, and that is no covered entity even when its test name says "Dental".
 * tests/integration/compliance-*.test.ts test the notice with the default (on).
 */
export async function withoutNotice(organizationId: string): Promise<void> {
  const db = await getDb();
  await db
    .insert(complianceSettings)
    .values({ organizationId, noticeEnabled: false, businessState: "NY", hipaaMode: false, recordCalls: false })
    .onConflictDoUpdate({ target: complianceSettings.organizationId, set: { noticeEnabled: false, businessState: "NY", hipaaMode: false, recordCalls: false } });
}
