import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { organizations } from "./organizations";

/** Per-user notification switches (Settings → Notifications), with the spec's defaults. */
export const notificationPreferences = pgTable("notification_preference", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailNotifications: boolean("email_notifications").notNull().default(false),
  callAlerts: boolean("call_alerts").notNull().default(true),
  systemUpdates: boolean("system_updates").notNull().default(true),
  /** The alerts an owner should not miss (issue 30): each on by default, each switchable. */
  messageAlerts: boolean("message_alerts").notNull().default(true),
  voicemailAlerts: boolean("voicemail_alerts").notNull().default(true),
  missedCallAlerts: boolean("missed_call_alerts").notNull().default(true),
  urgentTaskAlerts: boolean("urgent_task_alerts").notNull().default(true),
  /** Those alerts by e-mail too (SMTP when set, the Outbox otherwise); the summary e-mails stay behind emailNotifications. */
  alertEmails: boolean("alert_emails").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An organization's own provider credentials, encrypted with AES-256-GCM (lib/platform/crypto/secret-box.ts).
 * Only `hint` (the last four characters) is ever shown back.
 */
export const providerCredentials = pgTable(
  "provider_credential",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["anthropic", "elevenlabs", "deepgram", "twilio", "stripe"] }).notNull(),
    ciphertext: text("ciphertext").notNull(),
    hint: text("hint").notNull(),
    /** The provider's answer when the key was saved: verified, offline (not checked) or refused. */
    verificationStatus: text("verification_status", { enum: ["verified", "offline", "refused"] }),
    verificationMessage: text("verification_message"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    updatedBy: text("updated_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("provider_credential_org_provider_idx").on(t.organizationId, t.provider)],
);

/** Which catalogue integrations an organization has connected, with their non-secret settings. */
export const integrationConnections = pgTable(
  "integration_connection",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    integration: text("integration").notNull(),
    connected: boolean("connected").notNull().default(true),
    /** e.g. {url, events} for webhooks; never secrets. */
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    /** Encrypted signing secret or incoming-webhook URL, when the integration has one. */
    secretCiphertext: text("secret_ciphertext"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("integration_connection_org_integration_idx").on(t.organizationId, t.integration)],
);

/** Outgoing webhook deliveries: one row per event and endpoint, retried with backoff until delivered or given up. */
export const webhookDeliveries = pgTable(
  "webhook_delivery",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    connectionId: text("connection_id")
      .notNull()
      .references(() => integrationConnections.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** What an OAuth card's delivery made at the provider (HubSpot call, Notion page, Asana task gid…). */
    externalId: text("external_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_delivery_org_created_idx").on(t.organizationId, t.createdAt),
    index("webhook_delivery_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * An OAuth authorization in progress (lib/channels/integrations/oauth.ts): `id` is the `state` sent to the
 * provider, bound to the organization and the user who pressed Connect, used once, and short-lived.
 * The PKCE code verifier is kept encrypted until the callback exchanges the code.
 */
export const oauthStates = pgTable(
  "oauth_state",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    integration: text("integration").notNull(),
    codeVerifierCiphertext: text("code_verifier_ciphertext").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_state_expires_idx").on(t.expiresAt)],
);
