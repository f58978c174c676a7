CREATE TABLE "rate_limit_hit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_hit_key_created_idx" ON "rate_limit_hit" USING btree ("key","created_at");