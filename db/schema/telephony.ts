import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import type { NumberRouting } from "./routing";

/** One owner's rule for a kind of call (validated by lib/agents/conversation/call-rules.ts). */
export type CallRule = {
  when: "emergency" | "asks_for_person" | "complaint" | "after_hours";
  action: "transfer" | "take_message" | "urgent_task" | "book";
  /** transfer: E.164; absent → the number's forward-to. */
  to?: string;
  /** asks_for_person: the person this rule is for; absent → anyone. */
  person?: string;
};

/** What a new assistant starts with: an emergency is transferred to the number's forward-to (a message and an urgent task when nobody answers or there is none); a complaint becomes an urgent task. */
export const DEFAULT_CALL_RULES: CallRule[] = [
  { when: "emergency", action: "transfer" },
  { when: "complaint", action: "urgent_task" },
];

/**
 * What may cut the assistant off while it speaks on ConversationRelay (Twilio's `interruptible`):
 * the caller's speech, speech or keypad, the keypad only, or nothing (validated by
 * lib/agents/assistants/schema.ts, RELAY_INTERRUPTIONS).
 */
export type RelayInterruptions = "speech" | "any" | "dtmf" | "none";

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
    /** The owner's call-handling rules (lib/agents/conversation/call-rules.ts): what the engine does on an emergency, a request for a person, a complaint, after hours. */
    callRules: jsonb("call_rules").$type<CallRule[]>().notNull().default(DEFAULT_CALL_RULES),
    /** ConversationRelay: what may interrupt the assistant's speech (lib/phone/telephony/relay/settings.ts). */
    interruptions: text("interruptions").$type<RelayInterruptions>().notNull().default("speech"),
    /** ConversationRelay: "uh-huh", "okay", "ajá" while the assistant speaks neither cut the reply nor start a turn. */
    ignoreBackchannels: boolean("ignore_backchannels").notNull().default(true),
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
    /** Calls use the low-latency path (Twilio ConversationRelay through the WebSocket gateway) instead of the Gather loop. */
    streaming: boolean("streaming").notNull().default(false),
    /** Ring-first or assistant-first, and the ordered routing rules (docs/telephony.md#routing); null = assistant first, no rules. */
    routing: jsonb("routing").$type<NumberRouting>(),
    /**
     * A brought-in number: whether the owner proved they control it (a verification call with a
     * code, lib/phone/numbers/ownership.ts). "not_needed" for a number bought through Switchboard.
     */
    ownershipStatus: text("ownership_status", { enum: ["not_needed", "pending", "verified", "failed"] }).notNull().default("not_needed"),
    /** The verification call's code (shown to the owner while pending) and the carrier's id for the request. */
    ownershipCode: text("ownership_code"),
    ownershipRequestSid: text("ownership_request_sid"),
    ownershipCheckedAt: timestamp("ownership_checked_at", { withTimezone: true }),
    /** The last "Test forwarding" call: when, its carrier id, who placed it, and whether it arrived on the webhook. */
    forwardingTest: jsonb("forwarding_test").$type<{ at: string; callSid: string; arrived: boolean; arrivedAt?: string; from?: string }>(),
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


/**
 * One turn of a call. `latencyMs` is the server's time to the assistant's reply (request arrival →
 * reply ready to play; on the streaming path, the caller's last words → the first text token).
 * `interrupted`/`heard`: the caller cut the reply off, and only `heard` was spoken (streaming path).
 * `kind` marks a message taken for the team or a keypad press.
 */
export type TranscriptTurn = {
  speaker: "caller" | "assistant" | "agent";
  text: string;
  at: string;
  latencyMs?: number;
  interrupted?: boolean;
  heard?: string;
  kind?: "message" | "dtmf";
  /** The intent of an assistant reply (the model's context for the next turn). */
  intent?: string;
  /** The Gather step whose words these are (a resumed step does not write them twice). */
  step?: number;
};

export const callOutcomes = ["answered_by_assistant", "transferred", "voicemail", "missed", "failed", "blocked"] as const;
export type CallOutcome = (typeof callOutcomes)[number];
export const failureClasses = ["timeout", "authentication", "processing"] as const;
export type FailureClass = (typeof failureClasses)[number];
/** Where a live call stands in the assistant's loop (lib/channels/phone-line/voice). */
export const callModes = ["conversation", "message", "transfer", "ring_first", "voicemail", "ended"] as const;
export type CallMode = (typeof callModes)[number];

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
     * (lib/agents/a2a/agent/conversations.ts; `fromNumber` then names the calling agent).
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
    /** Why the call went where it went, in words ("After hours (closed Sunday): voicemail"). */
    routedBecause: text("routed_because"),
    /** 0–100 from the signals in spamReasons (lib/phone/routing/spam.ts); null for calls never scored. */
    spamScore: integer("spam_score"),
    spamReasons: jsonb("spam_reasons").$type<string[]>().notNull().default([]),
    /** Credits the call spent (turns, transcription), and credits given back through the ledger. */
    costCredits: integer("cost_credits").notNull().default(0),
    creditedBack: integer("credited_back").notNull().default(0),
    recordingUrl: text("recording_url"),
    /** Which carrier delivered the call (null for imported or seeded rows). */
    provider: text("provider", { enum: ["twilio", "simulated"] }),
    /** gather: the webhook turn loop; relay: ConversationRelay through the gateway. */
    transport: text("transport", { enum: ["gather", "relay"] }),
    /** What the caller got (docs/api.md#calls): set while the call runs and when it ends. */
    outcome: text("outcome", { enum: callOutcomes }),
    /** Set whenever the assistant failed during the call (the call may still have ended in a voicemail). */
    failureClass: text("failure_class", { enum: failureClasses }),
    /** 1 (very negative) … 5 (very positive), from the post-call analysis; `sentiment` is its three-way label. */
    sentimentScore: integer("sentiment_score"),
    actionItems: jsonb("action_items").$type<string[]>().notNull().default([]),
    analyzedAt: timestamp("analyzed_at", { withTimezone: true }),
    /** When call.completed / voicemail.received / call.missed went out (once per call). */
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    /** The carrier's last CallStatus (queued, ringing, in-progress, completed, busy, no-answer, failed, canceled). */
    carrierStatus: text("carrier_status"),
    /** The turn loop: each webhook action carries the step it answers; a retry of a step replays its answer. */
    mode: text("mode", { enum: callModes }).notNull().default("conversation"),
    step: integer("step").notNull().default(0),
    silentPrompts: integer("silent_prompts").notNull().default(0),
    lastResponse: text("last_response"),
    lastResponseStep: integer("last_response_step"),
    /** When the current step was claimed: a claim older than the step's expiry whose answer never came (the process died) may be taken again. */
    stepClaimedAt: timestamp("step_claimed_at", { withTimezone: true }),
    recordingSid: text("recording_sid"),
    voicemailTranscript: text("voicemail_transcript"),
    transcriptionStatus: text("transcription_status", { enum: ["pending", "done", "unavailable", "failed"] }),
    transcriptionNote: text("transcription_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("call_org_started_idx").on(t.organizationId, t.startedAt, t.id),
    // Call history filtered by number: keyset pages without scanning the organization's other calls.
    index("call_org_number_started_idx").on(t.organizationId, t.phoneNumberId, t.startedAt, t.id),
    // A returning caller's memory and spam score read this caller's calls only (issue 29: a scan of the table before).
    index("call_org_from_started_idx").on(t.organizationId, t.fromNumber, t.startedAt),
    // Calls in progress (admin stats' active calls): a handful of rows whatever the history (issue 29).
    index("call_active_idx").on(t.status).where(sql`${t.status} in ('ringing', 'in_progress')`),
    // Platform figures (every organization) scan the hours the rollup does not hold yet by time alone.
    index("call_started_idx").on(t.startedAt),
  ],
);

/** One text conversation: a number of the organization and one contact. Opt-out (STOP) is stored here. */
export const messageThreads = pgTable(
  "message_thread",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phoneNumberId: text("phone_number_id")
      .notNull()
      .references(() => phoneNumbers.id, { onDelete: "cascade" }),
    contactNumber: text("contact_number").notNull(),
    optedOut: boolean("opted_out").notNull().default(false),
    optedOutAt: timestamp("opted_out_at", { withTimezone: true }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("message_thread_number_contact_idx").on(t.phoneNumberId, t.contactNumber),
    index("message_thread_org_last_idx").on(t.organizationId, t.lastMessageAt),
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
    spamScore: integer("spam_score"),
    spamReasons: jsonb("spam_reasons").$type<string[]>().notNull().default([]),
    costCredits: integer("cost_credits").notNull().default(0),
    creditedBack: integer("credited_back").notNull().default(0),
    intent: text("intent"),
    threadId: text("thread_id").references(() => messageThreads.id, { onDelete: "set null" }),
    /** Outbound only: who wrote it — the assistant, the owner (from Call History), or the carrier's STOP/START/HELP rules. */
    sentBy: text("sent_by", { enum: ["assistant", "owner", "system"] }),
    /** Outbound only: the inbound text it answers (a carrier retry of that text is answered with the same reply). */
    replyToId: text("reply_to_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("message_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("message_created_idx").on(t.createdAt),
    index("message_thread_created_idx").on(t.threadId, t.createdAt),
    // A contact's texts either way (caller memory, spam score) without reading the organization's others.
    index("message_org_from_created_idx").on(t.organizationId, t.fromNumber, t.createdAt),
    index("message_org_to_created_idx").on(t.organizationId, t.toNumber, t.createdAt),
  ],
);

/**
 * What the assistant (or the owner through it) did, one row per action, so analytics can count
 * them: took_message, transferred, transfer_unanswered, voicemail_recorded, callback_requested,
 * booking_requested, texted_back, owner_replied, opted_out, opted_in, spam_declined.
 */
export const assistantActions = pgTable(
  "assistant_action",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    callId: text("call_id").references(() => calls.id, { onDelete: "cascade" }),
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    type: text("type").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("assistant_action_org_type_created_idx").on(t.organizationId, t.type, t.createdAt),
    index("assistant_action_call_idx").on(t.callId),
  ],
);

/**
 * The simulated carrier's account of an organization: like a Twilio account, an SID (AC + 32 hex)
 * and an auth token that signs every webhook of its numbers. The token is encrypted at rest.
 */
export const telephonyAccounts = pgTable("telephony_account", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  accountSid: text("account_sid").notNull().unique(),
  authTokenCiphertext: text("auth_token_ciphertext").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

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
    /** Tools of the organization's MCP services the model called during this turn (lib/agents/mcp/assistant-tools.ts). */
    toolCalls: jsonb("tool_calls").$type<AssistantToolCall[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("assistant_reply_org_created_idx").on(t.organizationId, t.createdAt)],
);
