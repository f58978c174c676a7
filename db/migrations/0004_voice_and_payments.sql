CREATE TABLE "audio_clip" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"duration_ms" integer,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_turn" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"chat_session_id" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"intent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_event" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"plan_id" text,
	"description" text NOT NULL,
	"invoice_number" text NOT NULL,
	"provider_session_id" text,
	"provider_payment_id" text,
	"created_by" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payment_invoice_number_unique" UNIQUE("invoice_number"),
	CONSTRAINT "payment_provider_session_id_unique" UNIQUE("provider_session_id")
);
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "current_period_start" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "current_period_end" timestamp with time zone DEFAULT now() + interval '1 month' NOT NULL;--> statement-breakpoint
ALTER TABLE "audio_clip" ADD CONSTRAINT "audio_clip_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_turn" ADD CONSTRAINT "chat_turn_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audio_clip_org_created_idx" ON "audio_clip" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_turn_session_idx" ON "chat_turn" USING btree ("chat_session_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_event_provider_id_idx" ON "payment_event" USING btree ("provider","id");--> statement-breakpoint
CREATE INDEX "payment_org_created_idx" ON "payment" USING btree ("organization_id","created_at");