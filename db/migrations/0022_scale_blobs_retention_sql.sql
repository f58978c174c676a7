-- Blobs are audio (already compressed or not worth compressing): stored out of line uncompressed, so
-- substring(data from …) reads only the TOAST chunks of the requested byte range.
ALTER TABLE "blob" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
-- MCP search_calls: a trigram index over the searched text, so a search does not read every call of
-- the organization (PGlite loads the extension too: db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "call_search_trgm_idx" ON "call" USING gin ((
  coalesce("caller_name", '') || ' ' || "from_number" || ' ' || "to_number" || ' ' || coalesce("summary", '') || ' ' || ("transcript"::text)
) gin_trgm_ops);
--> statement-breakpoint
-- Retention (lib/retention): only the rows that still hold words to delete, so a run does not read
-- the calls and texts earlier runs already emptied.
CREATE INDEX IF NOT EXISTS "call_org_transcript_kept_idx" ON "call" ("organization_id", "started_at")
  WHERE "transcript" <> '[]'::jsonb OR "voicemail_transcript" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "message_org_body_kept_idx" ON "message" ("organization_id", "created_at") WHERE "body" <> '';
