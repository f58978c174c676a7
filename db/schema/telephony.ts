import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const voiceAssistants = pgTable(
  "voice_assistant",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    personality: text("personality").notNull().default("friendly"),
    instructions: text("instructions").notNull().default(""),
    voice: text("voice").notNull().default("alloy"),
    greeting: text("greeting").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("voice_assistant_org_idx").on(t.organizationId, t.createdAt)],
);

export type BusinessHours = { timezone: string; days: Record<string, { open: string; close: string } | null> };

export const phoneNumbers = pgTable(
  "phone_number",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull().unique(),
    friendlyName: text("friendly_name").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    provider: text("provider", { enum: ["twilio", "simulated"] }).notNull().default("simulated"),
    twilioSid: text("twilio_sid"),
    assistantId: text("assistant_id").references(() => voiceAssistants.id, { onDelete: "set null" }),
    forwardTo: text("forward_to"),
    businessHours: jsonb("business_hours").$type<BusinessHours>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("phone_number_org_idx").on(t.organizationId, t.createdAt)],
);

/** One tool call made by the model during an assistant turn. */
export type AssistantToolCall = {
  service: string;
  serviceId: string;
  tool: string;
  input: unknown;
  output: string;
  isError: boolean;
  durationMs: number;
};

export type TranscriptTurn = { speaker: "caller" | "assistant" | "agent"; text: string; at: string };

export const calls = pgTable(
  "call",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumberId: text("phone_number_id").references(() => phoneNumbers.id, { onDelete: "set null" }),
    assistantId: text("assistant_id").references(() => voiceAssistants.id, { onDelete: "set null" }),
    providerCallSid: text("provider_call_sid").unique(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    /**
     * How the conversation reached the business: a phone call, or another AI agent over A2A
     * (lib/a2a/agent/conversations.ts; `fromNumber` then names the calling agent).
     */
    channel: text("channel", { enum: ["phone", "agent"] }).notNull().default("phone"),
    fromNumber: text("from_number").notNull(),
    toNumber: text("to_number").notNull(),
    callerName: text("caller_name"),
    status: text("status", { enum: ["ringing", "in_progress", "completed", "missed", "voicemail", "failed"] }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    transcript: jsonb("transcript").$type<TranscriptTurn[]>().notNull().default([]),
    summary: text("summary"),
    sentiment: text("sentiment", { enum: ["positive", "neutral", "negative"] }),
    intent: text("intent"),
    isSpam: boolean("is_spam").notNull().default(false),
    recordingUrl: text("recording_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("call_org_started_idx").on(t.organizationId, t.startedAt, t.id),
    // Call history filtered by number: keyset pages without scanning the organization's other calls.
    index("call_org_number_started_idx").on(t.organizationId, t.phoneNumberId, t.startedAt, t.id),
  ],
);

export const messages = pgTable(
  "message",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumberId: text("phone_number_id").references(() => phoneNumbers.id, { onDelete: "set null" }),
    providerMessageSid: text("provider_message_sid").unique(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    fromNumber: text("from_number").notNull(),
    toNumber: text("to_number").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["received", "sent", "delivered", "failed"] }).notNull(),
    isSpam: boolean("is_spam").notNull().default(false),
    intent: text("intent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("message_org_created_idx").on(t.organizationId, t.createdAt, t.id)],
);

/**
 * One assistant reply (voice test, chat, call turn, text) with its stage timings in milliseconds.
 * The dashboard's Avg Response Time and the analytics read from here.
 */
export const assistantReplies = pgTable(
  "assistant_reply",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    assistantId: text("assistant_id").references(() => voiceAssistants.id, { onDelete: "set null" }),
    callId: text("call_id").references(() => calls.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["voice_test", "chat", "call", "sms", "agent"] }).notNull(),
    intent: text("intent"),
    inputText: text("input_text").notNull(),
    replyText: text("reply_text").notNull(),
    llmProvider: text("llm_provider").notNull(),
    ttsProvider: text("tts_provider"),
    llmFirstTokenMs: integer("llm_first_token_ms"),
    llmTotalMs: integer("llm_total_ms").notNull(),
    ttsFirstByteMs: integer("tts_first_byte_ms"),
    ttsTotalMs: integer("tts_total_ms"),
    totalMs: integer("total_ms").notNull(),
    /** Tools of the organization's MCP services the model called during this turn (lib/mcp/assistant-tools.ts). */
    toolCalls: jsonb("tool_calls").$type<AssistantToolCall[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("assistant_reply_org_created_idx").on(t.organizationId, t.createdAt)],
);
