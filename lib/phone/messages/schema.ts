import { z } from "zod";

/** Sending one text (the MCP tool send_text; later the owner's own sends). Client-safe. */
export const sendTextInput = z.object({
  to: z
    .string({ error: "to is required" })
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "to must be a phone number with + and the country code, e.g. +14155550123"),
  body: z.string({ error: "body is required" }).trim().min(1, "body is required").max(1600, "body must be at most 1,600 characters"),
  fromPhoneNumberId: z.string().max(200).optional(),
});

export type SendTextInput = z.infer<typeof sendTextInput>;
