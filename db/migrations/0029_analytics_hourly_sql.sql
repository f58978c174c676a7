-- Hourly rollup (issue 29): the triggers that mark dirty days also mark dirty UTC hours of the last
-- 72 hours, so the 24h analytics range reads whole hours from analytics_hour (lib/analytics/rollup.ts).
CREATE OR REPLACE FUNCTION analytics_mark_dirty_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT o, d FROM (VALUES (OLD.organization_id, (OLD.started_at AT TIME ZONE 'UTC')::date), (NEW.organization_id, (NEW.started_at AT TIME ZONE 'UTC')::date)) v(o, d)
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT o, date_trunc('hour', t, 'UTC') FROM (VALUES (OLD.organization_id, OLD.started_at), (NEW.organization_id, NEW.started_at)) v(o, t)
     WHERE t >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_created_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT o, d FROM (VALUES (OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date), (NEW.organization_id, (NEW.created_at AT TIME ZONE 'UTC')::date)) v(o, d)
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT o, date_trunc('hour', t, 'UTC') FROM (VALUES (OLD.organization_id, OLD.created_at), (NEW.organization_id, NEW.created_at)) v(o, t)
     WHERE t >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (started_at AT TIME ZONE 'UTC')::date FROM new_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT organization_id, date_trunc('hour', started_at, 'UTC') FROM new_rows WHERE started_at >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_call_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (started_at AT TIME ZONE 'UTC')::date FROM old_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT organization_id, date_trunc('hour', started_at, 'UTC') FROM old_rows WHERE started_at >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_created_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM new_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') FROM new_rows WHERE created_at >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_created_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM old_rows
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') FROM old_rows WHERE created_at >= now() - interval '72 hours'
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What was written in the last 72 hours before this migration is read live until the job has rolled it up.
INSERT INTO analytics_dirty_hour (organization_id, hour)
  SELECT organization_id, date_trunc('hour', started_at, 'UTC') FROM "call" WHERE started_at >= now() - interval '72 hours'
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "message" WHERE created_at >= now() - interval '72 hours'
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "assistant_reply" WHERE created_at >= now() - interval '72 hours'
ON CONFLICT DO NOTHING;
