CREATE TABLE "credit_usage_hour" (
	"organization_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_usage_hour_organization_id_hour_pk" PRIMARY KEY("organization_id","hour")
);
--> statement-breakpoint
CREATE INDEX "credit_usage_hour_hour_idx" ON "credit_usage_hour" USING btree ("hour");