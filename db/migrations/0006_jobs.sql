CREATE TABLE "job_schedule" (
	"name" text PRIMARY KEY NOT NULL,
	"last_enqueued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"start_after" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retry_limit" integer DEFAULT 3 NOT NULL,
	"retry_delay_seconds" integer DEFAULT 30 NOT NULL,
	"singleton_key" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "job_due_idx" ON "job" USING btree ("state","start_after");--> statement-breakpoint
CREATE UNIQUE INDEX "job_singleton_idx" ON "job" USING btree ("name","singleton_key") WHERE "job"."singleton_key" is not null;