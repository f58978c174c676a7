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
--> statement-breakpoint
-- Counts kept as rows change (organization_count): the dashboard reads one row, not a history.
CREATE FUNCTION organization_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  IF TG_TABLE_NAME = 'call' THEN
    INSERT INTO organization_count (organization_id, calls)
      SELECT organization_id, sign * count(*) FROM changed_rows GROUP BY organization_id
      ON CONFLICT (organization_id) DO UPDATE SET calls = organization_count.calls + excluded.calls;
  ELSIF TG_TABLE_NAME = 'message' THEN
    INSERT INTO organization_count (organization_id, messages)
      SELECT organization_id, sign * count(*) FROM changed_rows GROUP BY organization_id
      ON CONFLICT (organization_id) DO UPDATE SET messages = organization_count.messages + excluded.messages;
  ELSE
    INSERT INTO organization_count (organization_id, reply_ms_sum, reply_ms_count)
      SELECT organization_id, sign * coalesce(sum(total_ms), 0), sign * count(total_ms) FROM changed_rows
       WHERE organization_id IS NOT NULL GROUP BY organization_id
      ON CONFLICT (organization_id) DO UPDATE SET reply_ms_sum = organization_count.reply_ms_sum + excluded.reply_ms_sum,
                                                 reply_ms_count = organization_count.reply_ms_count + excluded.reply_ms_count;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION organization_count_reply_ms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.organization_id IS NOT NULL THEN
    UPDATE organization_count SET reply_ms_sum = reply_ms_sum - coalesce(OLD.total_ms, 0), reply_ms_count = reply_ms_count - (OLD.total_ms IS NOT NULL)::int
     WHERE organization_id = OLD.organization_id;
  END IF;
  IF NEW.organization_id IS NOT NULL THEN
    INSERT INTO organization_count (organization_id, reply_ms_sum, reply_ms_count)
      VALUES (NEW.organization_id, coalesce(NEW.total_ms, 0), (NEW.total_ms IS NOT NULL)::int)
      ON CONFLICT (organization_id) DO UPDATE SET reply_ms_sum = organization_count.reply_ms_sum + excluded.reply_ms_sum,
                                                 reply_ms_count = organization_count.reply_ms_count + excluded.reply_ms_count;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER call_count_insert AFTER INSERT ON "call" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER call_count_delete AFTER DELETE ON "call" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER message_count_insert AFTER INSERT ON "message" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER message_count_delete AFTER DELETE ON "message" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER assistant_reply_count_insert AFTER INSERT ON "assistant_reply" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER assistant_reply_count_delete AFTER DELETE ON "assistant_reply" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_count_add();--> statement-breakpoint
CREATE TRIGGER assistant_reply_count_update AFTER UPDATE OF organization_id, total_ms ON "assistant_reply" FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.total_ms IS DISTINCT FROM NEW.total_ms) EXECUTE FUNCTION organization_count_reply_ms();--> statement-breakpoint
-- What was there before the triggers.
INSERT INTO organization_count (organization_id, calls, messages, reply_ms_sum, reply_ms_count)
SELECT organization_id, sum(calls), sum(messages), sum(ms), sum(n) FROM (
  SELECT organization_id, count(*) AS calls, 0 AS messages, 0 AS ms, 0 AS n FROM "call" GROUP BY organization_id
  UNION ALL SELECT organization_id, 0, count(*), 0, 0 FROM "message" GROUP BY organization_id
  UNION ALL SELECT organization_id, 0, 0, coalesce(sum(total_ms), 0), count(total_ms) FROM "assistant_reply" WHERE organization_id IS NOT NULL GROUP BY organization_id
) t GROUP BY organization_id;
--> statement-breakpoint
-- The calls live right now (admin stats): a partial index holding only them, not a scan of every call.
CREATE INDEX IF NOT EXISTS "call_live_idx" ON "call" ("organization_id") WHERE "status" IN ('ringing', 'in_progress');
