-- Any change to a session or a user row says so on the channel switchboard_auth, so a process that
-- keeps signed-in sessions in memory (embedded PGlite: lib/auth/session-cache.ts) forgets them before
-- the writing statement returns. Inserts need no word: nothing cached can be made stale by them.
CREATE FUNCTION switchboard_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_auth', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON "session" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_changed();
--> statement-breakpoint
CREATE TRIGGER user_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_changed();
