import { complianceSettings } from "@/db/schema";
import { getDb } from "@/lib/database";

/**
 * Switches the disclosure notice off for an organization whose calls test something else (routing,
 * booking, voicemail): a business in New York (one-party consent; the simulated carrier's numbers are
 * often in California, which would require it) whose test callers (+1 555 …) are in no state.
 * tests/integration/compliance-*.test.ts test the notice with the default (on).
 */
export async function withoutNotice(organizationId: string): Promise<void> {
  const db = await getDb();
  await db
    .insert(complianceSettings)
    .values({ organizationId, noticeEnabled: false, businessState: "NY" })
    .onConflictDoUpdate({ target: complianceSettings.organizationId, set: { noticeEnabled: false, businessState: "NY" } });
}
