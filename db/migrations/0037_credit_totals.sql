CREATE TABLE "credit_total" (
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_total_organization_id_kind_category_pk" PRIMARY KEY("organization_id","kind","category")
);
--> statement-breakpoint
CREATE TABLE "credit_usage_hour" (
	"organization_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_usage_hour_organization_id_hour_pk" PRIMARY KEY("organization_id","hour")
);
--> statement-breakpoint
CREATE INDEX "credit_usage_hour_hour_idx" ON "credit_usage_hour" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "analytics_day_org_source_dim_day_idx" ON "analytics_day" USING btree ("organization_id","source","dim","day");--> statement-breakpoint
CREATE INDEX "analytics_hour_org_source_dim_hour_idx" ON "analytics_hour" USING btree ("organization_id","source","dim","hour");--> statement-breakpoint
CREATE INDEX "analytics_hour_hour_idx" ON "analytics_hour" USING btree ("hour");