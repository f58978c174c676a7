ALTER TABLE "record_access_log" ADD COLUMN "action" text DEFAULT 'opened' NOT NULL;--> statement-breakpoint
ALTER TABLE "record_access_log" ADD COLUMN "detail" text;