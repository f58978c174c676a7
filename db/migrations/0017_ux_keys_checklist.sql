ALTER TABLE "organization" ADD COLUMN "setup_checklist_dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_credential" ADD COLUMN "verification_status" text;--> statement-breakpoint
ALTER TABLE "provider_credential" ADD COLUMN "verification_message" text;--> statement-breakpoint
ALTER TABLE "provider_credential" ADD COLUMN "verified_at" timestamp with time zone;