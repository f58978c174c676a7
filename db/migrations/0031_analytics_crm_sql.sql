-- CRM voice figures from the rollup (issue 29): assistant actions and e-mails mark their day and hour
-- dirty like calls, texts and replies do (the functions of migrations 0018 / analytics_hourly_sql).
CREATE TRIGGER assistant_action_analytics_insert AFTER INSERT ON "assistant_action" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_insert();
--> statement-breakpoint
CREATE TRIGGER assistant_action_analytics_delete AFTER DELETE ON "assistant_action" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_delete();
--> statement-breakpoint
CREATE TRIGGER assistant_action_analytics_update AFTER UPDATE OF organization_id, type, created_at ON "assistant_action" FOR EACH ROW EXECUTE FUNCTION analytics_mark_dirty_created_update();
--> statement-breakpoint
CREATE TRIGGER email_analytics_insert AFTER INSERT ON "email" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_insert();
--> statement-breakpoint
CREATE TRIGGER email_analytics_delete AFTER DELETE ON "email" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty_created_delete();
--> statement-breakpoint
CREATE TRIGGER email_analytics_update AFTER UPDATE OF organization_id, status, created_at ON "email" FOR EACH ROW EXECUTE FUNCTION analytics_mark_dirty_created_update();
--> statement-breakpoint
-- Rollup rows written before this migration lack the sentiment labels, reply sources, actions and
-- e-mails: their days (and hours) are read live until the job has recomputed them.
INSERT INTO analytics_dirty_day (organization_id, day)
  SELECT DISTINCT organization_id, day FROM analytics_day
  UNION SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM "assistant_action"
  UNION SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date FROM "email"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO analytics_dirty_hour (organization_id, hour)
  SELECT DISTINCT organization_id, hour FROM analytics_hour
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "assistant_action" WHERE created_at >= now() - interval '72 hours'
  UNION SELECT organization_id, date_trunc('hour', created_at, 'UTC') FROM "email" WHERE created_at >= now() - interval '72 hours'
ON CONFLICT DO NOTHING;
