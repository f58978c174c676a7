CREATE TABLE "appointment" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"service_id" text,
	"service_name" text NOT NULL,
	"resource_id" text,
	"status" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"block_start" timestamp with time zone NOT NULL,
	"block_end" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"replaces_appointment_id" text,
	"customer_name" text NOT NULL,
	"customer_phone" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"source_ref" text,
	"customer_confirmed_at" timestamp with time zone,
	"reschedule_offer" jsonb,
	"reschedule_offered_at" timestamp with time zone,
	"confirmation_sent_at" timestamp with time zone,
	"reminder_sent_for" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"google_event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_times_check" CHECK ("appointment"."block_start" <= "appointment"."starts_at" and "appointment"."starts_at" < "appointment"."ends_at" and "appointment"."ends_at" <= "appointment"."block_end"),
	CONSTRAINT "appointment_hold_check" CHECK (("appointment"."status" <> 'held') or ("appointment"."hold_expires_at" is not null and "appointment"."hold_expires_at" > "appointment"."claimed_at"))
);
--> statement-breakpoint
CREATE TABLE "blocked_time" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"resource_id" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_time_range_check" CHECK ("blocked_time"."starts_at" < "blocked_time"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "booking_settings" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"slot_interval_minutes" integer DEFAULT 15 NOT NULL,
	"hold_minutes" integer DEFAULT 5 NOT NULL,
	"min_notice_minutes" integer DEFAULT 60 NOT NULL,
	"max_advance_days" integer DEFAULT 60 NOT NULL,
	"confirmation_sms" boolean DEFAULT true NOT NULL,
	"reminder_sms" boolean DEFAULT true NOT NULL,
	"reminder_minutes_before" integer DEFAULT 1440 NOT NULL,
	"ics_token" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_ics_token_unique" UNIQUE("ics_token")
);
--> statement-breakpoint
CREATE TABLE "booking_resource" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'staff' NOT NULL,
	"follows_business_hours" boolean DEFAULT true NOT NULL,
	"weekly_hours" jsonb,
	"is_active" boolean DEFAULT true NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_resource" (
	"organization_id" text NOT NULL,
	"service_id" text NOT NULL,
	"resource_id" text NOT NULL,
	CONSTRAINT "service_resource_service_id_resource_id_pk" PRIMARY KEY("service_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "sms_opt_out" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"phone" text NOT NULL,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_resource_id_booking_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."booking_resource"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_time" ADD CONSTRAINT "blocked_time_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_time" ADD CONSTRAINT "blocked_time_resource_id_booking_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."booking_resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD CONSTRAINT "booking_settings_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_resource" ADD CONSTRAINT "booking_resource_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_resource" ADD CONSTRAINT "service_resource_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_resource" ADD CONSTRAINT "service_resource_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_resource" ADD CONSTRAINT "service_resource_resource_id_booking_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."booking_resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_out" ADD CONSTRAINT "sms_opt_out_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_org_starts_idx" ON "appointment" USING btree ("organization_id","starts_at");--> statement-breakpoint
CREATE INDEX "appointment_org_phone_idx" ON "appointment" USING btree ("organization_id","customer_phone","starts_at");--> statement-breakpoint
CREATE INDEX "blocked_time_org_starts_idx" ON "blocked_time" USING btree ("organization_id","starts_at");--> statement-breakpoint
CREATE INDEX "booking_resource_org_idx" ON "booking_resource" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "service_resource_org_idx" ON "service_resource" USING btree ("organization_id","resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_opt_out_org_phone_idx" ON "sms_opt_out" USING btree ("organization_id","phone");--> statement-breakpoint
CREATE INDEX "sms_opt_out_phone_idx" ON "sms_opt_out" USING btree ("phone");