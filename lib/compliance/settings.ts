import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { complianceSettings, organizations, phoneNumbers } from "@/db/schema";
import { badRequest } from "@/lib/platform/http/errors";
import { looksLikeHealthcare } from "@/lib/identity/organizations/hipaa-mode";
import { forgetHipaaMode } from "@/lib/identity/auth/idle-sessions";
import { noticeTextProblem, type NoticeSettings } from "./notice";
import type { ComplianceSettingsInput } from "./schema";
import { isAllPartyState, normalizeState, requiresAiDisclosure, stateFromAddress, stateFromNumber } from "./states";

/** What GET/PUT /api/settings/compliance answer: the stored switches with their defaults applied. */
export type ComplianceSettingsView = NoticeSettings & {
  /** The state the rules use for the business: the saved one, else from its address, else its first number's area code. */
  businessState: string | null;
  businessStateSource: "settings" | "address" | "number" | null;
  /** The state from the address or the number alone (what applies when no state is saved). */
  derivedState: string | null;
  /** The law of the business's own state requires the notice: it cannot be switched off. */
  noticeRequired: boolean;
  /** Whole calls are recorded (on Twilio numbers) where consent holds. */
  recordCalls: boolean;
  hipaaMode: boolean;
  hipaaModeDefault: boolean;
  baaProviders: string[];
};


export async function complianceSettingsFor(db: DbOrTx, organizationId: string): Promise<ComplianceSettingsView> {
  const [[row], [org], [number]] = await Promise.all([
    db.select().from(complianceSettings).where(eq(complianceSettings.organizationId, organizationId)),
    db.select({ name: organizations.name, profile: organizations.businessProfile }).from(organizations).where(eq(organizations.id, organizationId)),
    db.select({ phoneNumber: phoneNumbers.phoneNumber }).from(phoneNumbers).where(eq(phoneNumbers.organizationId, organizationId)).limit(1),
  ]);
  const saved = normalizeState(row?.businessState);
  const fromAddress = stateFromAddress(org?.profile.address);
  const fromNumber = stateFromNumber(number?.phoneNumber);
  const businessState = saved ?? fromAddress ?? fromNumber;
  const hipaaModeDefault = looksLikeHealthcare(org?.name ?? "", org?.profile.services);
  return {
    noticeEnabled: row?.noticeEnabled ?? true,
    noticeText: row?.noticeText ?? null,
    businessState,
    businessStateSource: saved ? "settings" : fromAddress ? "address" : fromNumber ? "number" : null,
    derivedState: fromAddress ?? fromNumber,
    noticeRequired: isAllPartyState(businessState) || requiresAiDisclosure(businessState),
    recordCalls: row?.recordCalls ?? true,
    hipaaMode: row?.hipaaMode ?? hipaaModeDefault,
    hipaaModeDefault,
    baaProviders: row?.baaProviders ?? [],
  };
}

/**
 * PUT /api/settings/compliance. Owners may reword the notice, never remove it where the business's
 * state requires it (400 naming `noticeEnabled`), and their words must still say "AI" and "recorded"
 * (400 naming `noticeText`): a caller from an all-party state hears them whatever the switch says.
 */
export async function updateComplianceSettings(db: DbOrTx, organizationId: string, userId: string, input: ComplianceSettingsInput): Promise<ComplianceSettingsView> {
  const current = await complianceSettingsFor(db, organizationId);
  if (input.businessState && !normalizeState(input.businessState)) throw badRequest("businessState must be a two-letter US state", { businessState: "businessState must be a two-letter US state" });
  const businessState = input.businessState !== undefined ? normalizeState(input.businessState) : current.businessStateSource === "settings" ? current.businessState : null;
  const effectiveState = businessState ?? current.derivedState;
  const noticeEnabled = input.noticeEnabled ?? current.noticeEnabled;
  if (!noticeEnabled && (isAllPartyState(effectiveState) || requiresAiDisclosure(effectiveState))) {
    const message = `The notice is required by law in ${effectiveState}: you can reword it, not switch it off`;
    throw badRequest(message, { noticeEnabled: message });
  }
  if (input.noticeText) {
    const problem = noticeTextProblem(input.noticeText);
    if (problem) throw badRequest(problem, { noticeText: problem });
  }
  const values = {
    noticeEnabled,
    noticeText: input.noticeText !== undefined ? input.noticeText || null : current.noticeText,
    businessState,
    recordCalls: input.recordCalls ?? current.recordCalls,
    hipaaMode: input.hipaaMode !== undefined ? input.hipaaMode : undefined,
    baaProviders: input.baaProviders ?? current.baaProviders,
    updatedBy: userId,
    updatedAt: new Date(),
  };
  await db
    .insert(complianceSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: complianceSettings.organizationId, set: values });
  forgetHipaaMode(organizationId);
  return complianceSettingsFor(db, organizationId);
}
