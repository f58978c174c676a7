-- The ledger's sums kept as it is written (credit_total, issue 29): a statement trigger adds each
-- statement's rows per organization, kind and category in the same transaction as the ledger write,
-- so the master admin's figures read a few rows per organization instead of summing every entry.
-- Rows are added in key order, so two statements touching the same organizations lock them alike.
CREATE FUNCTION credit_total_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
  ELSE
    -- UPDATE and DELETE: take the old rows out (an UPDATE puts the new ones in too), then drop emptied totals.
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), -sum(amount), -sum(units), -count(*) FROM old_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    IF TG_OP = 'UPDATE' THEN
      INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
        SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (organization_id, kind, category) DO UPDATE
          SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    END IF;
    DELETE FROM credit_total t USING (SELECT DISTINCT organization_id FROM old_rows) o
     WHERE t.organization_id = o.organization_id AND t.entries = 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_insert AFTER INSERT ON "credit_ledger" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_update AFTER UPDATE ON "credit_ledger" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_delete AFTER DELETE ON "credit_ledger" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
-- What was there before the triggers.
INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM credit_ledger GROUP BY 1, 2, 3;

--> statement-breakpoint
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

--> statement-breakpoint
-- Credits used per organization and UTC hour (credit_usage_hour), kept by the ledger's statement
-- trigger next to credit_total, in the same transaction as each ledger write: the analytics "credits
-- used" of a range reads whole hours here instead of summing the range's usage rows.
CREATE OR REPLACE FUNCTION credit_total_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- Take the old rows out (an UPDATE puts the new ones back in below).
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), -sum(amount), -sum(units), -count(*) FROM old_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    INSERT INTO credit_usage_hour (organization_id, hour, units)
      SELECT organization_id, date_trunc('hour', created_at, 'UTC'), -sum(units) FROM old_rows WHERE kind = 'usage'
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (organization_id, hour) DO UPDATE SET units = credit_usage_hour.units + excluded.units;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    INSERT INTO credit_usage_hour (organization_id, hour, units)
      SELECT organization_id, date_trunc('hour', created_at, 'UTC'), sum(units) FROM new_rows WHERE kind = 'usage'
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (organization_id, hour) DO UPDATE SET units = credit_usage_hour.units + excluded.units;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM credit_total t USING (SELECT DISTINCT organization_id FROM old_rows) o
     WHERE t.organization_id = o.organization_id AND t.entries = 0;
    DELETE FROM credit_usage_hour h USING (SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') AS hour FROM old_rows WHERE kind = 'usage') o
     WHERE h.organization_id = o.organization_id AND h.hour = o.hour AND h.units = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What was there before.
INSERT INTO credit_usage_hour (organization_id, hour, units)
SELECT organization_id, date_trunc('hour', created_at, 'UTC'), sum(units) FROM credit_ledger WHERE kind = 'usage' GROUP BY 1, 2;
