CREATE TABLE "call_policy" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"spam_threshold" integer DEFAULT 70 NOT NULL,
	"spam_action" text DEFAULT 'voicemail' NOT NULL,
	"share_spam_reports" boolean DEFAULT false NOT NULL,
	"monthly_cap_credits" integer,
	"at_cap" text DEFAULT 'voicemail_only' NOT NULL,
	"cap_alert_month" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "caller_list_entry" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"list" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'owner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spam_report" (
	"number_hash" text NOT NULL,
	"organization_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "routed_because" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "spam_score" integer;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "spam_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "cost_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "credited_back" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "spam_score" integer;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "spam_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "cost_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "credited_back" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "routing" jsonb;--> statement-breakpoint
ALTER TABLE "call_policy" ADD CONSTRAINT "call_policy_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caller_list_entry" ADD CONSTRAINT "caller_list_entry_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spam_report" ADD CONSTRAINT "spam_report_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "caller_list_entry_org_number_idx" ON "caller_list_entry" USING btree ("organization_id","phone_number");--> statement-breakpoint
CREATE UNIQUE INDEX "spam_report_hash_org_idx" ON "spam_report" USING btree ("number_hash","organization_id");--> statement-breakpoint
CREATE INDEX "spam_report_hash_idx" ON "spam_report" USING btree ("number_hash");