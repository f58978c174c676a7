CREATE TABLE "blob" (
	"key" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_count" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"messages" bigint DEFAULT 0 NOT NULL,
	"reply_ms_sum" bigint DEFAULT 0 NOT NULL,
	"reply_ms_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_deletion" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_setting" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"recordings_days" integer,
	"transcripts_days" integer,
	"texts_days" integer,
	"audio_cache_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "audio_clip" ADD COLUMN "speech_text" text;--> statement-breakpoint
ALTER TABLE "audio_clip" ADD COLUMN "voice_id" text;--> statement-breakpoint
ALTER TABLE "retention_deletion" ADD CONSTRAINT "retention_deletion_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_setting" ADD CONSTRAINT "retention_setting_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retention_deletion_org_deleted_idx" ON "retention_deletion" USING btree ("organization_id","deleted_at");--> statement-breakpoint
CREATE INDEX "call_org_from_started_idx" ON "call" USING btree ("organization_id","from_number","started_at");--> statement-breakpoint
CREATE INDEX "message_org_from_created_idx" ON "message" USING btree ("organization_id","from_number","created_at");--> statement-breakpoint
CREATE INDEX "message_org_to_created_idx" ON "message" USING btree ("organization_id","to_number","created_at");--> statement-breakpoint
CREATE INDEX "task_org_contact_idx" ON "task" USING btree ("organization_id","contact_number","created_at");