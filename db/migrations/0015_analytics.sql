CREATE TABLE "analytics_report" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_by" text,
	"name" text NOT NULL,
	"metrics" jsonb NOT NULL,
	"range" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_check" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"component" text NOT NULL,
	"status" text NOT NULL,
	"latency_ms" integer,
	"detail" text DEFAULT '' NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logistics_request" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"call_id" text,
	"message_id" text,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"contact" text,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "analytics_report" ADD CONSTRAINT "analytics_report_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_request" ADD CONSTRAINT "logistics_request_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_request" ADD CONSTRAINT "logistics_request_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_request" ADD CONSTRAINT "logistics_request_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_report_org_created_idx" ON "analytics_report" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "health_check_checked_idx" ON "health_check" USING btree ("checked_at");--> statement-breakpoint
CREATE INDEX "health_check_component_checked_idx" ON "health_check" USING btree ("component","checked_at");--> statement-breakpoint
CREATE INDEX "logistics_request_org_status_created_idx" ON "logistics_request" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE INDEX "credit_ledger_kind_category_idx" ON "credit_ledger" USING btree ("kind","category");