CREATE TABLE "call_consent" (
	"call_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"notice_text" text,
	"required" boolean NOT NULL,
	"strict" boolean NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"caller_state" text,
	"business_state" text,
	"played_at" timestamp with time zone,
	"stayed_on_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_recording" (
	"call_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"recording_sid" text NOT NULL,
	"duration_seconds" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"clip_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_setting" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"notice_enabled" boolean DEFAULT true NOT NULL,
	"notice_text" text,
	"business_state" text,
	"record_calls" boolean DEFAULT true NOT NULL,
	"hipaa_mode" boolean,
	"baa_providers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasure_certificate" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"subject" text NOT NULL,
	"subject_hash" text NOT NULL,
	"requested_via" text NOT NULL,
	"requested_by" text,
	"requested_by_name" text,
	"erased" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_registration" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"brand_name" text NOT NULL,
	"brand_sid" text,
	"campaign_sid" text,
	"use_case" text DEFAULT 'CUSTOMER_CARE' NOT NULL,
	"reason" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queued_text" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"phone_number_id" text,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"origin" text NOT NULL,
	"reason" text NOT NULL,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_access_log" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text,
	"user_email" text,
	"resource" text NOT NULL,
	"call_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_consent" ADD CONSTRAINT "call_consent_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_consent" ADD CONSTRAINT "call_consent_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recording" ADD CONSTRAINT "call_recording_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recording" ADD CONSTRAINT "call_recording_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_setting" ADD CONSTRAINT "compliance_setting_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_certificate" ADD CONSTRAINT "erasure_certificate_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_certificate" ADD CONSTRAINT "erasure_certificate_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_registration" ADD CONSTRAINT "messaging_registration_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_text" ADD CONSTRAINT "queued_text_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_access_log" ADD CONSTRAINT "record_access_log_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_consent_org_created_idx" ON "call_consent" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "call_recording_org_idx" ON "call_recording" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "erasure_certificate_org_created_idx" ON "erasure_certificate" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "erasure_certificate_subject_idx" ON "erasure_certificate" USING btree ("organization_id","subject_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_registration_brand_sid_uq" ON "messaging_registration" USING btree ("brand_sid");--> statement-breakpoint
CREATE INDEX "queued_text_org_sent_idx" ON "queued_text" USING btree ("organization_id","sent_at");--> statement-breakpoint
CREATE INDEX "record_access_log_org_created_idx" ON "record_access_log" USING btree ("organization_id","created_at");