ALTER TABLE "call" ADD COLUMN "step_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voice_assistant" ADD COLUMN "call_rules" jsonb DEFAULT '[{"when":"emergency","action":"transfer"},{"when":"complaint","action":"urgent_task"}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "task" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;