CREATE TABLE "analytics_day" (
	"organization_id" text NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"dim" text NOT NULL,
	"key" text,
	"phone_number_id" text,
	"assistant_id" text,
	"direction" text,
	"n" integer DEFAULT 0 NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"unserved" integer DEFAULT 0 NOT NULL,
	"timeouts" integer DEFAULT 0 NOT NULL,
	"auth" integer DEFAULT 0 NOT NULL,
	"processing" integer DEFAULT 0 NOT NULL,
	"duration_sum" bigint DEFAULT 0 NOT NULL,
	"duration_n" integer DEFAULT 0 NOT NULL,
	"score_sum" bigint DEFAULT 0 NOT NULL,
	"score_n" integer DEFAULT 0 NOT NULL,
	"s5" integer DEFAULT 0 NOT NULL,
	"s4" integer DEFAULT 0 NOT NULL,
	"s3" integer DEFAULT 0 NOT NULL,
	"s12" integer DEFAULT 0 NOT NULL,
	"ms_sum" bigint DEFAULT 0 NOT NULL,
	"under1" integer DEFAULT 0 NOT NULL,
	"mid" integer DEFAULT 0 NOT NULL,
	"over3" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_dirty_day" (
	"organization_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_dirty_day_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
ALTER TABLE "analytics_day" ADD CONSTRAINT "analytics_day_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_day_org_source_day_idx" ON "analytics_day" USING btree ("organization_id","source","day");--> statement-breakpoint
-- Mark the (organization, UTC day) of every written call, text and assistant reply as dirty, so reads
-- scan that day live until the analytics.rollup job has recomputed it (lib/analytics/rollup.ts).
CREATE FUNCTION analytics_mark_dirty_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT o, d FROM (VALUES (OLD.organization_id, (OLD.started_at AT TIME ZONE 'UTC')::date), (NEW.organization_id, (NEW.started_at AT TIME ZONE 'UTC')::date)) v(o, d)
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_mark_dirty_created_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT o, d FROM (VALUES (OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date), (NEW.organization_id, (NEW.created_at AT TIME ZONE 'UTC')::date)) v(o, d)
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_mark_dirty_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (started_at AT TIME ZONE 'UTC')::date FROM new_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_mark_dirty_call_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (started_at AT TIME ZONE 'UTC')::date FROM old_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_mark_dirty_created_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM new_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_mark_dirty_created_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM old_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER call_analytics_insert AFTER INSERT ON "call" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_call_insert();
--> statement-breakpoint
CREATE TRIGGER call_analytics_delete AFTER DELETE ON "call" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_call_delete();
--> statement-breakpoint
CREATE TRIGGER call_analytics_update AFTER UPDATE OF organization_id, phone_number_id, assistant_id, direction, channel, from_number, to_number, status, started_at, duration_seconds, intent, outcome, failure_class, sentiment_score ON "call" FOR EACH ROW EXECUTE FUNCTION analytics_mark_dirty_call_update();
--> statement-breakpoint
CREATE TRIGGER message_analytics_insert AFTER INSERT ON "message" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_insert();
--> statement-breakpoint
CREATE TRIGGER message_analytics_delete AFTER DELETE ON "message" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_delete();
--> statement-breakpoint
CREATE TRIGGER message_analytics_update AFTER UPDATE OF organization_id, phone_number_id, direction, created_at ON "message" FOR EACH ROW EXECUTE FUNCTION analytics_mark_dirty_created_update();
--> statement-breakpoint
CREATE TRIGGER assistant_reply_analytics_insert AFTER INSERT ON "assistant_reply" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_insert();
--> statement-breakpoint
CREATE TRIGGER assistant_reply_analytics_delete AFTER DELETE ON "assistant_reply" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_delete();
--> statement-breakpoint
CREATE TRIGGER assistant_reply_analytics_update AFTER UPDATE OF organization_id, assistant_id, call_id, total_ms, created_at ON "assistant_reply" FOR EACH ROW EXECUTE FUNCTION analytics_mark_dirty_created_update();
--> statement-breakpoint
-- Everything written before the rollup existed is read live until the job has rolled it up.
INSERT INTO analytics_dirty_day (organization_id, day)
  SELECT organization_id, (started_at AT TIME ZONE 'UTC')::date FROM "call"
  UNION SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM "message"
  UNION SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM "assistant_reply"
ON CONFLICT DO NOTHING;
