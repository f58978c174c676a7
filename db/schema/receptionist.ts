import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { organizations } from "./organizations";
import { calls, messages, phoneNumbers } from "./telephony";

/**
 * The receptionist's follow-up (docs/receptionist.md): tasks from voicemails, messages and callback
 * requests; the text-back and owner notification after a call; in-app notifications; e-mails (sent
 * or kept in the outbox); daily recaps; and caller memory per contact.
 */

export const taskKinds = ["voicemail", "message", "callback"] as const;
export type TaskKind = (typeof taskKinds)[number];
export const taskStatuses = ["open", "done", "snoozed"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export const tasks = pgTable(
  "task",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: taskKinds }).notNull(),
    /** What to do, one line ("Call back Maria about a quote for a deep cleaning"). */
    title: text("title").notNull(),
    /** Urgent (an emergency or a complaint, by the owner's call rules): shown first, flagged in the owner's notice. */
    urgent: boolean("urgent").notNull().default(false),
    /** The caller's own words (the message, the voicemail transcript). */
    detail: text("detail").notNull().default(""),
    /** Who: E.164 and the name when known. */
    contactNumber: text("contact_number").notNull(),
    contactName: text("contact_name"),
    callId: text("call_id").references(() => calls.id, { onDelete: "set null" }),
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    status: text("status", { enum: taskStatuses }).notNull().default("open"),
    snoozedUntil: timestamp("snoozed_until", { withTimezone: true }),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    /** One task per source and kind: a job run twice makes it once ("call:{id}:voicemail"). */
    sourceKey: text("source_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("task_org_source_uq").on(t.organizationId, t.sourceKey), index("task_org_status_created_idx").on(t.organizationId, t.status, t.createdAt),
    // A returning caller's open tasks (caller memory) without reading the organization's others.
    index("task_org_contact_idx").on(t.organizationId, t.contactNumber, t.createdAt),
  ],
);

/** Per number: whether missed and assistant-handled calls get a text back, and its template. */
export const textBackSettings = pgTable("text_back_setting", {
  phoneNumberId: text("phone_number_id")
    .primaryKey()
    .references(() => phoneNumbers.id, { onDelete: "cascade" }),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(true),
  template: text("template").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Per organization: when the daily recap is built (local time "HH:MM" in the business's time zone). */
export const recapSettings = pgTable("recap_setting", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(true),
  localTime: text("local_time").notNull().default("18:00"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The follow-up of one call, each step claimed once (a job run twice texts and notifies once). */
export const callFollowUps = pgTable("call_follow_up", {
  callId: text("call_id")
    .primaryKey()
    .references(() => calls.id, { onDelete: "cascade" }),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  tasksAt: timestamp("tasks_at", { withTimezone: true }),
  /** sent, opted_out, disabled, not_applicable, failed: what happened to the text-back. */
  textBack: text("text_back"),
  textBackMessageId: text("text_back_message_id"),
  notifiedAt: timestamp("notified_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type RecapItem = { label: string; count: number; link: string; lines: { text: string; link: string }[] };
export type RecapContent = {
  date: string;
  timezone: string;
  from: string;
  to: string;
  answered: RecapItem;
  missed: RecapItem;
  spamBlocked: RecapItem;
  newTasks: RecapItem;
  knowledgeGaps: RecapItem;
  bookings: RecapItem;
};

export const recaps = pgTable(
  "recap",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The local date it covers ("YYYY-MM-DD" in the business's time zone). */
    date: text("date").notNull(),
    content: jsonb("content").$type<RecapContent>().notNull(),
    /** Where it went: in_app, email (sent or outbox), slack. */
    deliveredTo: jsonb("delivered_to").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("recap_org_date_uq").on(t.organizationId, t.date)],
);

/** In-app notifications per user (the bell): a missed call, a new task, a recap. */
export const notifications = pgTable(
  "notification",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notification_user_created_idx").on(t.userId, t.createdAt)],
);

/** Every e-mail the app writes: sent through SMTP when configured, otherwise kept here as the outbox. */
export const emails = pgTable(
  "email",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    kind: text("kind").notNull(),
    /** sent (SMTP accepted it), outbox (no SMTP configured), failed (SMTP refused; error kept). */
    status: text("status", { enum: ["sent", "outbox", "failed"] }).notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_org_created_idx").on(t.organizationId, t.createdAt)],
);

/**
 * What the assistant remembers about a caller, with consent: the name and the preferences they
 * stated. Past calls, texts and open tasks are read from their own tables. `forgottenAt`: the caller
 * or the owner said "forget me" — everything before it is never offered again, and nothing new is
 * remembered (the row stays as the marker, holding no personal data but the number).
 */
export const contacts = pgTable(
  "contact",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    name: text("name"),
    preferences: jsonb("preferences").$type<string[]>().notNull().default([]),
    forgottenAt: timestamp("forgotten_at", { withTimezone: true }),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("contact_org_phone_uq").on(t.organizationId, t.phone)],
);
