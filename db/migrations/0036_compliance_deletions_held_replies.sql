ALTER TABLE "queued_text" ADD COLUMN "reply_to_id" text;--> statement-breakpoint
ALTER TABLE "queued_text" ADD COLUMN "sent_by" text;--> statement-breakpoint
ALTER TABLE "queued_text" ADD COLUMN "intent" text;--> statement-breakpoint
ALTER TABLE "queued_text" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "queued_text" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "record_access_log" ADD COLUMN "action" text DEFAULT 'opened' NOT NULL;--> statement-breakpoint
ALTER TABLE "record_access_log" ADD COLUMN "detail" text;