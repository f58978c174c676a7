import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { organizations } from "./organizations";
import { calls } from "./telephony";

/**
 * Compliance by default (docs/compliance.md): an organization's notice and HIPAA switches, the
 * consent record of every call, and the certificates of erasures. No row means the defaults.
 */
export const complianceSettings = pgTable("compliance_setting", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** The notice plays on every call unless switched off (where no party's state requires it). */
  noticeEnabled: boolean("notice_enabled").notNull().default(true),
  /** The owner's own wording; null = the default notice. */
  noticeText: text("notice_text"),
  /** Two-letter US state of the business; null = from the business address, else its number's area code. */
  businessState: text("business_state"),
  /** Record whole calls (Twilio `<Start><Recording>`) where consent holds. */
  recordCalls: boolean("record_calls").notNull().default(true),
  /** HIPAA mode; null = the default (on for dental and medical businesses). */
  hipaaMode: boolean("hipaa_mode"),
  /** Providers the business holds a Business Associate Agreement with (HIPAA mode allows only these and offline ones). */
  baaProviders: jsonb("baa_providers").$type<string[]>().notNull().default([]),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The consent record of one call: which notice played and when, and whether the caller stayed on
 * past it (their first turn reached us). Transcripts and recordings are kept only when consent holds.
 */
export const callConsents = pgTable(
  "call_consent",
  {
    callId: text("call_id")
      .primaryKey()
      .references(() => calls.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The words played; null when no notice was given (switched off where no law requires it). */
    noticeText: text("notice_text"),
    required: boolean("required").notNull(),
    strict: boolean("strict").notNull(),
    reasons: jsonb("reasons").$type<string[]>().notNull().default([]),
    callerState: text("caller_state"),
    businessState: text("business_state"),
    /** When the notice was sent to the caller (it plays before anything else, uninterruptible). */
    playedAt: timestamp("played_at", { withTimezone: true }),
    /** When the caller was first heard after it (their first Gather or stream turn): they stayed on. */
    stayedOnAt: timestamp("stayed_on_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("call_consent_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** What one erasure removed, when, and at whose request: the certificate an owner can download. */
export const erasureCertificates = pgTable(
  "erasure_certificate",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The number, masked to its last four digits: the certificate itself names nobody. */
    subject: text("subject").notNull(),
    /** SHA-256 of organization + number, so a repeated request can be matched without keeping the number. */
    subjectHash: text("subject_hash").notNull(),
    /** caller_call, caller_text, caller_agent (the caller asked) or owner (an owner recorded the request). */
    requestedVia: text("requested_via", { enum: ["caller_call", "caller_text", "caller_agent", "owner"] }).notNull(),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    requestedByName: text("requested_by_name"),
    /** Rows erased per kind (transcripts, recordings, texts, …). */
    erased: jsonb("erased").$type<Record<string, number>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("erasure_certificate_org_created_idx").on(t.organizationId, t.createdAt), index("erasure_certificate_subject_idx").on(t.organizationId, t.subjectHash)],
);

/** Who opened which transcript or recording (HIPAA mode's access log), and the recordings deleted at the carrier. */
export const recordAccessLog = pgTable(
  "record_access_log",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id"),
    userEmail: text("user_email"),
    /** transcript (a call's detail), recording (its audio), voicemail. */
    resource: text("resource", { enum: ["transcript", "recording", "voicemail"] }).notNull(),
    callId: text("call_id"),
    /** opened (someone read it) or deleted (a recording removed at the carrier: no consent, erasure). */
    action: text("action", { enum: ["opened", "deleted"] }).notNull().default("opened"),
    /** What was done and why, for a deletion ("Deleted at Twilio (RE…): no consent …"). */
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("record_access_log_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** A2P 10DLC: the organization's messaging registration (brand and campaign) and its state. */
export const messagingRegistrations = pgTable(
  "messaging_registration",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["simulated", "twilio"] }).notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    brandName: text("brand_name").notNull(),
    brandSid: text("brand_sid"),
    campaignSid: text("campaign_sid"),
    useCase: text("use_case").notNull().default("CUSTOMER_CARE"),
    reason: text("reason"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("messaging_registration_brand_sid_uq").on(t.brandSid)],
);

/** Texts to callers that wait for the organization's messaging registration (A2P 10DLC) to be approved. */
export const queuedTexts = pgTable(
  "queued_text",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumberId: text("phone_number_id"),
    toNumber: text("to_number").notNull(),
    body: text("body").notNull(),
    /** What sent it: owner, text_back, appointment, sms_reply (the SMS webhook's reply), opt_out_confirmation. */
    origin: text("origin").notNull(),
    /** Why it waits, as the owner reads it. */
    reason: text("reason").notNull(),
    /** The text it answers (a held SMS-webhook reply), and how the sent message is to be tagged. */
    replyToId: text("reply_to_id"),
    sentBy: text("sent_by", { enum: ["assistant", "owner", "system"] }),
    intent: text("intent"),
    /** The message row once it went out; null while it waits. */
    messageId: text("message_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Not sent after all (the contact opted out while it waited), and why. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("queued_text_org_sent_idx").on(t.organizationId, t.sentAt)],
);

/** A whole-call recording (Twilio `<Start><Recording>`), kept only where the call's consent holds. */
export const callRecordings = pgTable(
  "call_recording",
  {
    callId: text("call_id")
      .primaryKey()
      .references(() => calls.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    recordingSid: text("recording_sid").notNull(),
    durationSeconds: integer("duration_seconds"),
    /** pending (the carrier has it), stored (our audio clip), discarded (no consent, or erased). */
    status: text("status", { enum: ["pending", "stored", "discarded"] }).notNull().default("pending"),
    clipId: text("clip_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("call_recording_org_idx").on(t.organizationId, t.createdAt)],
);
