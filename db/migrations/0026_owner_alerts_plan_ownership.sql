ALTER TABLE "organization" ADD COLUMN "scheduled_tier" text;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "ownership_status" text DEFAULT 'not_needed' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "ownership_code" text;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "ownership_request_sid" text;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "ownership_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "forwarding_test" jsonb;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD COLUMN "message_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD COLUMN "voicemail_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD COLUMN "missed_call_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD COLUMN "urgent_task_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD COLUMN "alert_emails" boolean DEFAULT true NOT NULL;