CREATE INDEX "call_started_idx" ON "call" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "message_created_idx" ON "message" USING btree ("created_at");