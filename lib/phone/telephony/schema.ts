import { z } from "zod";

/** POST /api/messages/{id}/reply — shared by the reply box in Call History and the route. */
export const replyToThreadInput = z.object({
  body: z.string("Write a reply").trim().min(1, "Write a reply").max(1600, "A text can be at most 1,600 characters"),
});
export type ReplyToThreadInput = z.infer<typeof replyToThreadInput>;
