import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * What a business offers: the assistant's knowledge of services and prices (business profile) and
 * what can be booked (appointments). Durations and buffers in minutes; a price in cents, or a
 * free-text price ("from $80") when it varies.
 */
export const services = pgTable(
  "service",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    durationMinutes: integer("duration_minutes").notNull().default(30),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    priceCents: integer("price_cents"),
    priceText: text("price_text"),
    bookable: boolean("bookable").notNull().default(true),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("service_org_idx").on(t.organizationId, t.name)],
);

/** Weekly working hours of a staff member or room: local "HH:MM" ranges per weekday (the business profile's shape). */
export type WeeklySchedule = Partial<Record<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun", { open: string; close: string }[]>>;

/**
 * Who or what an appointment occupies: a staff member, a room, a piece of equipment. A resource
 * follows the business hours, or has its own weekly schedule (business holidays still apply).
 * Never deleted while appointments point at it: archived instead (`archivedAt`).
 */
export const resources = pgTable(
  "booking_resource",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["staff", "room", "equipment"] }).notNull().default("staff"),
    followsBusinessHours: boolean("follows_business_hours").notNull().default(true),
    weeklyHours: jsonb("weekly_hours").$type<WeeklySchedule>(),
    isActive: boolean("is_active").notNull().default(true),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("booking_resource_org_idx").on(t.organizationId, t.name)],
);

/** Which resources can deliver a service: an appointment takes one of them. A service with none uses the business's own calendar. */
export const serviceResources = pgTable(
  "service_resource",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    resourceId: text("resource_id")
      .notNull()
      .references(() => resources.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.resourceId] }), index("service_resource_org_idx").on(t.organizationId, t.resourceId)],
);

export type RescheduleOffer = { startsAt: string; resourceId: string | null }[];

/**
 * Holds and bookings in one table. A row claims its resource (or, with no resource, the business's
 * own calendar) for [block_start, block_end) — the appointment with its buffers — during
 * [claimed_at, hold_expires_at): a hold for a few minutes, a booking (no expiry) for good. The
 * exclusion constraint `appointment_no_overlap` (migration 0009) refuses two live rows whose
 * resource, time and claim all overlap, so an expired hold stops blocking without any cleanup.
 * See docs/appointments.md.
 */
export const appointments = pgTable(
  "appointment",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    serviceId: text("service_id").references(() => services.id, { onDelete: "set null" }),
    /** The service's name when booked, kept if the service is later renamed or deleted. */
    serviceName: text("service_name").notNull(),
    resourceId: text("resource_id").references(() => resources.id, { onDelete: "restrict" }),
    status: text("status", { enum: ["held", "confirmed", "cancelled"] }).notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** startsAt − buffer before and endsAt + buffer after: the time the row keeps others out of. */
    blockStart: timestamp("block_start", { withTimezone: true }).notNull(),
    blockEnd: timestamp("block_end", { withTimezone: true }).notNull(),
    /** From when the row claims its time; until hold_expires_at, or for good when that is null. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    /** A hold for moving this other appointment: confirming it moves that one and drops the hold. */
    replacesAppointmentId: text("replaces_appointment_id"),
    customerName: text("customer_name").notNull(),
    /** E.164; how a caller is recognised. */
    customerPhone: text("customer_phone").notNull(),
    notes: text("notes").notNull().default(""),
    source: text("source", { enum: ["manual", "api", "phone", "sms", "chat", "mcp", "a2a"] }).notNull(),
    /** e.g. the call or conversation the booking came from. */
    sourceRef: text("source_ref"),
    customerConfirmedAt: timestamp("customer_confirmed_at", { withTimezone: true }),
    rescheduleOffer: jsonb("reschedule_offer").$type<RescheduleOffer>(),
    rescheduleOfferedAt: timestamp("reschedule_offered_at", { withTimezone: true }),
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    /** The reminder sent for this start time (a move sends a new one). */
    reminderSentFor: timestamp("reminder_sent_for", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    googleEventId: text("google_event_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("appointment_org_starts_idx").on(t.organizationId, t.startsAt),
    index("appointment_org_phone_idx").on(t.organizationId, t.customerPhone, t.startsAt),
    check("appointment_times_check", sql`${t.blockStart} <= ${t.startsAt} and ${t.startsAt} < ${t.endsAt} and ${t.endsAt} <= ${t.blockEnd}`),
    check("appointment_hold_check", sql`(${t.status} <> 'held') or (${t.holdExpiresAt} is not null and ${t.holdExpiresAt} > ${t.claimedAt})`),
  ],
);

/** Time nobody can book: a resource's (or, with no resource, everyone's) lunch, leave, maintenance. */
export const blockedTimes = pgTable(
  "blocked_time",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    resourceId: text("resource_id").references(() => resources.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("blocked_time_org_starts_idx").on(t.organizationId, t.startsAt), check("blocked_time_range_check", sql`${t.startsAt} < ${t.endsAt}`)],
);

/** An organization's booking rules and its private calendar feed token (one row, made on first use). */
export const bookingSettings = pgTable("booking_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** Slots start every this many minutes from the opening time. */
  slotIntervalMinutes: integer("slot_interval_minutes").notNull().default(15),
  /** How long a chosen slot is held while the caller confirms. */
  holdMinutes: integer("hold_minutes").notNull().default(5),
  /** No booking starts sooner than this after now. */
  minNoticeMinutes: integer("min_notice_minutes").notNull().default(60),
  /** No booking starts later than this many days ahead. */
  maxAdvanceDays: integer("max_advance_days").notNull().default(60),
  confirmationSms: boolean("confirmation_sms").notNull().default(true),
  reminderSms: boolean("reminder_sms").notNull().default(true),
  /** The reminder goes this many minutes before the start. */
  reminderMinutesBefore: integer("reminder_minutes_before").notNull().default(1440),
  /** The secret in the ICS feed URL; regenerating it cuts off old subscriptions. */
  icsToken: text("ics_token").notNull().unique(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where a booking conversation stands (lib/scheduling/dialogue): one row per call, text thread,
 * chat session or agent conversation, so every webhook of a serverless phone loop picks up where
 * the last one left off. `state` null: no booking under way.
 */
export const bookingConversations = pgTable(
  "booking_conversation",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** call | sms | chat | voice_test | a2a */
    channel: text("channel").notNull(),
    /** The call id, thread id, chat session or agent conversation. */
    ref: text("ref").notNull(),
    callerPhone: text("caller_phone"),
    state: jsonb("state").$type<Record<string, unknown> | null>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("booking_conversation_ref_idx").on(t.organizationId, t.channel, t.ref)],
);
