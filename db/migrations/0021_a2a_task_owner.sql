ALTER TABLE "a2a_task" ADD COLUMN "owner_key" text;--> statement-breakpoint
CREATE INDEX "a2a_task_org_owner_idx" ON "a2a_task" USING btree ("organization_id","owner_key","updated_at");