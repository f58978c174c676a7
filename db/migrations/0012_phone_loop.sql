CREATE TABLE "assistant_action" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"call_id" text,
	"message_id" text,
	"type" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_thread" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"contact_number" text NOT NULL,
	"opted_out" boolean DEFAULT false NOT NULL,
	"opted_out_at" timestamp with time zone,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telephony_account" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"account_sid" text NOT NULL,
	"auth_token_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telephony_account_account_sid_unique" UNIQUE("account_sid")
);
--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "transport" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "failure_class" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "sentiment_score" integer;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "action_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "analyzed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "carrier_status" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "mode" text DEFAULT 'conversation' NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "silent_prompts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "last_response" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "last_response_step" integer;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "recording_sid" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "voicemail_transcript" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "transcription_status" text;--> statement-breakpoint
ALTER TABLE "call" ADD COLUMN "transcription_note" text;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "sent_by" text;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "reply_to_id" text;--> statement-breakpoint
ALTER TABLE "phone_number" ADD COLUMN "streaming" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audio_clip" ADD COLUMN "cache_key" text;--> statement-breakpoint
ALTER TABLE "assistant_action" ADD CONSTRAINT "assistant_action_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_action" ADD CONSTRAINT "assistant_action_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_action" ADD CONSTRAINT "assistant_action_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread" ADD CONSTRAINT "message_thread_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_thread" ADD CONSTRAINT "message_thread_phone_number_id_phone_number_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_number"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_account" ADD CONSTRAINT "telephony_account_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_action_org_type_created_idx" ON "assistant_action" USING btree ("organization_id","type","created_at");--> statement-breakpoint
CREATE INDEX "assistant_action_call_idx" ON "assistant_action" USING btree ("call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_thread_number_contact_idx" ON "message_thread" USING btree ("phone_number_id","contact_number");--> statement-breakpoint
CREATE INDEX "message_thread_org_last_idx" ON "message_thread" USING btree ("organization_id","last_message_at");--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_thread_id_message_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."message_thread"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_thread_created_idx" ON "message" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "audio_clip_org_cache_key_idx" ON "audio_clip" USING btree ("organization_id","cache_key");