ALTER TABLE "analytics_day" ADD COLUMN "pos" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_day" ADD COLUMN "neu" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_day" ADD COLUMN "neg" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_hour" ADD COLUMN "pos" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_hour" ADD COLUMN "neu" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_hour" ADD COLUMN "neg" integer DEFAULT 0 NOT NULL;