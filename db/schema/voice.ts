import { customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * Synthesized or recorded audio. The bytes live in the blob store (lib/platform/blob-store); this row says
 * who owns them and how to serve them. organizationId is null for the public demo assistant.
 */
export const audioClips = pgTable(
  "audio_clip",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    durationMs: integer("duration_ms"),
    source: text("source", { enum: ["voice_test", "chat", "call", "voicemail", "recording"] }).notNull(),
    /**
     * Synthesized speech that can be played again: a hash of (speech provider, voice, text). A line the
     * assistant says again in the same voice is served from its clip instead of being synthesized anew.
     */
    cacheKey: text("cache_key"),
    /**
     * Synthesized speech: the words and the voice it was made from, so a clip whose bytes are gone
     * (a retention run, a lost object) is synthesized again instead of answering 404 to a caller.
     */
    speechText: text("speech_text"),
    voiceId: text("voice_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audio_clip_org_created_idx").on(t.organizationId, t.createdAt),
    index("audio_clip_org_cache_key_idx").on(t.organizationId, t.cacheKey),
  ],
);

/** Turns of a voice-test or mobile chat conversation, so a chat sessionId keeps its context. */
export const chatTurns = pgTable(
  "chat_turn",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    chatSessionId: text("chat_session_id").notNull(),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    intent: text("intent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("chat_turn_session_idx").on(t.chatSessionId, t.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The default blob store (lib/platform/blob-store/postgres.ts): every instance reads the same bytes. The
 * column is stored uncompressed out of line (custom migration: STORAGE EXTERNAL), so a byte range is
 * read with substring() without loading the whole clip.
 */
export const blobs = pgTable("blob", {
  key: text("key").primaryKey(),
  data: bytea("data").notNull(),
  size: integer("size").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
