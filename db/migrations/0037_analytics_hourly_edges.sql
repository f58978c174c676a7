-- The hourly rollup keeps 182 days instead of 72 hours (issue 29): the 7d, 30d and 90d analytics ranges
-- (and the periods before them) then read their partial first and last days by the hour instead of
-- scanning a day of calls live at each edge, the one part of those reads that grew with a business's
-- volume. How long is kept lives in one place, analytics_hour_keep() (HOUR_ROLLUP_KEEP_HOURS in
-- lib/analytics/rollup.ts must match; a test checks), read by the triggers that mark dirty hours.
CREATE OR REPLACE FUNCTION analytics_hour_keep() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '182 days' $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_dirty_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty_day (organization_id, day)
    SELECT DISTINCT o, d FROM (VALUES (OLD.organization_id, (OLD.started_at AT TIME ZONE 'UTC')::date), (NEW.organization_id, (NEW.started_at AT TIME ZONE 'UTC')::date)) v(o, d)
  ON CONFLICT (organization_id, day) DO UPDATE SET version = analytics_dirty_day.version + 1, marked_at = now();
  INSERT INTO analytics_dirty_hour (organization_id, hour)
    SELECT DISTINCT o, date_trunc('hour', t, 'UTC') FROM (VALUES (OLD.organization_id, OLD.started_at), (NEW.organization_id, NEW.started_at)) v(o, t)
     WHERE t >= now() - analytics_hour_keep()
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
     WHERE t >= now() - analytics_hour_keep()
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
    SELECT DISTINCT organization_id, date_trunc('hour', started_at, 'UTC') FROM new_rows WHERE started_at >= now() - analytics_hour_keep()
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
    SELECT DISTINCT organization_id, date_trunc('hour', started_at, 'UTC') FROM old_rows WHERE started_at >= now() - analytics_hour_keep()
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
    SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') FROM new_rows WHERE created_at >= now() - analytics_hour_keep()
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
    SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') FROM old_rows WHERE created_at >= now() - analytics_hour_keep()
  ON CONFLICT (organization_id, hour) DO UPDATE SET marked_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
--> statement-breakpoint
-- What was written between 72 hours and 182 days ago is marked dirty: read live (as before) until the
-- per-organization rollup job has recomputed its hours.
INSERT INTO analytics_dirty_hour (organization_id, hour)
  SELECT organization_id, date_trunc('hour', started_at, 'UTC') FROM "call" WHERE started_at >= now() - analytics_hour_keep()
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "message" WHERE created_at >= now() - analytics_hour_keep()
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "assistant_reply" WHERE organization_id IS NOT NULL AND created_at >= now() - analytics_hour_keep()
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "assistant_action" WHERE created_at >= now() - analytics_hour_keep()
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "email" WHERE organization_id IS NOT NULL AND created_at >= now() - analytics_hour_keep()
ON CONFLICT DO NOTHING;
