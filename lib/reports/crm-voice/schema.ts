import { z } from "zod";

export const crmTestTypes = ["voice", "text", "logistics"] as const;
export type CrmTestType = (typeof crmTestTypes)[number];

/** What each test runs when the content is left empty. */
export const DEFAULT_TEST_CONTENT: Record<CrmTestType, string> = {
  voice: "Hi, I'd like to book an appointment for tomorrow morning.",
  text: "Are you open this Saturday?",
  logistics: "Please schedule a pickup of two boxes from 12 Main Street tomorrow at 10 AM.",
};

/** POST /api/crm-voice/test {testType, content}: empty content runs the type's default sample. */
export const crmTestInput = z.object({
  testType: z.enum(crmTestTypes, "testType must be voice, text or logistics"),
  content: z.string().max(1000, "content is at most 1,000 characters").optional().default(""),
});
export type CrmTestInput = z.infer<typeof crmTestInput>;

/** PATCH /api/crm-voice/logistics/{id} {status}. */
export const updateLogisticsInput = z.object({
  status: z.enum(["pending", "completed"], "status must be pending or completed"),
});
