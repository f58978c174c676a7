CREATE TABLE "a2a_phone_proof" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"context_id" text NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"request" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "a2a_task" ADD COLUMN "owner_key" text;--> statement-breakpoint
ALTER TABLE "a2a_phone_proof" ADD CONSTRAINT "a2a_phone_proof_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "a2a_phone_proof_org_context_idx" ON "a2a_phone_proof" USING btree ("organization_id","context_id");--> statement-breakpoint
CREATE INDEX "a2a_task_org_owner_idx" ON "a2a_task" USING btree ("organization_id","owner_key","updated_at");