CREATE TABLE "analytics_dirty_hour" (
	"organization_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_dirty_hour_organization_id_hour_pk" PRIMARY KEY("organization_id","hour")
);
--> statement-breakpoint
CREATE TABLE "analytics_hour" (
	"organization_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"dim" text NOT NULL,
	"key" text,
	"phone_number_id" text,
	"assistant_id" text,
	"direction" text,
	"n" integer DEFAULT 0 NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"unserved" integer DEFAULT 0 NOT NULL,
	"timeouts" integer DEFAULT 0 NOT NULL,
	"auth" integer DEFAULT 0 NOT NULL,
	"processing" integer DEFAULT 0 NOT NULL,
	"duration_sum" bigint DEFAULT 0 NOT NULL,
	"duration_n" integer DEFAULT 0 NOT NULL,
	"score_sum" bigint DEFAULT 0 NOT NULL,
	"score_n" integer DEFAULT 0 NOT NULL,
	"s5" integer DEFAULT 0 NOT NULL,
	"s4" integer DEFAULT 0 NOT NULL,
	"s3" integer DEFAULT 0 NOT NULL,
	"s12" integer DEFAULT 0 NOT NULL,
	"ms_sum" bigint DEFAULT 0 NOT NULL,
	"under1" integer DEFAULT 0 NOT NULL,
	"mid" integer DEFAULT 0 NOT NULL,
	"over3" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_hour" ADD CONSTRAINT "analytics_hour_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_hour_org_source_hour_idx" ON "analytics_hour" USING btree ("organization_id","source","hour");