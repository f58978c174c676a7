import { z } from "zod";

export const gapStatuses = ["open", "answered", "dismissed"] as const;
export type GapStatus = (typeof gapStatuses)[number];
export const gapSources = ["voice_test", "chat", "call", "sms"] as const;
export type GapSource = (typeof gapSources)[number];

/** GET /api/knowledge-gaps?status=open&limit=50 */
export const listGapsQuery = z.object({
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum([...gapStatuses, "all"], "Status must be open, answered, dismissed or all").default("open")),
  limit: z.coerce.number().int("Limit must be a whole number").min(1, "Limit must be at least 1").max(200, "Limit must be at most 200").default(50),
});
export type ListGapsQuery = z.infer<typeof listGapsQuery>;

/** POST /api/knowledge-gaps/{id}/answer: the answer, and optionally the question reworded for the FAQ. */
export const answerGapInput = z.object({
  answer: z.string("Write the answer").trim().min(1, "Write the answer").max(2000, "Answer must be at most 2000 characters"),
  question: z.string().trim().min(1, "Write the question").max(300, "Question must be at most 300 characters").optional(),
});
export type AnswerGapInput = z.infer<typeof answerGapInput>;
