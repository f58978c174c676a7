CREATE TABLE "knowledge_gap_occurrence" (
	"id" text PRIMARY KEY NOT NULL,
	"gap_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"source" text NOT NULL,
	"call_id" text,
	"message_id" text,
	"chat_session_id" text,
	"assistant_id" text,
	"assistant_reply_id" text,
	"question" text NOT NULL,
	"reply_text" text DEFAULT '' NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_gap" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"question" text NOT NULL,
	"question_key" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by_user_id" text,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"first_asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_gap_id_knowledge_gap_id_fk" FOREIGN KEY ("gap_id") REFERENCES "public"."knowledge_gap"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_assistant_id_voice_assistant_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."voice_assistant"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap_occurrence" ADD CONSTRAINT "knowledge_gap_occurrence_assistant_reply_id_assistant_reply_id_fk" FOREIGN KEY ("assistant_reply_id") REFERENCES "public"."assistant_reply"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_gap" ADD CONSTRAINT "knowledge_gap_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_gap_occurrence_gap_idx" ON "knowledge_gap_occurrence" USING btree ("gap_id","asked_at");--> statement-breakpoint
CREATE INDEX "knowledge_gap_occurrence_call_idx" ON "knowledge_gap_occurrence" USING btree ("organization_id","call_id");--> statement-breakpoint
CREATE INDEX "knowledge_gap_org_status_idx" ON "knowledge_gap" USING btree ("organization_id","status","last_asked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_gap_open_question_uq" ON "knowledge_gap" USING btree ("organization_id","question_key") WHERE "knowledge_gap"."status" = 'open';