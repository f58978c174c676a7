import { z } from "zod";
import { decodeCursor } from "./cursor";
import { historyStatuses, historyTypes } from "./constants";

export { callStatuses, historyStatuses, historyTypes, messageStatuses, type HistoryType } from "./constants";

/** Query parameters arrive as strings; an empty one (`cursor=`) means "not given". */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const isoDate = (label: string) =>
  z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${label} must be a date and time in ISO 8601, e.g. 2026-11-22T00:00:00Z`)
    .transform((v) => new Date(v));

export const historyQuery = z
  .object({
    cursor: z.preprocess(
      blankToUndefined,
      z
        .string()
        .transform((value, ctx) => {
          const decoded = decodeCursor(value);
          if (!decoded) {
            ctx.addIssue({ code: "custom", message: "The cursor is not valid; start again from the first page" });
            return z.NEVER;
          }
          return decoded;
        })
        .optional(),
    ),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(100, "limit must be at most 100").default(25),
    ),
    type: z.preprocess(blankToUndefined, z.enum(historyTypes, "type must be all, call, message or voicemail").default("all")),
    from: z.preprocess(blankToUndefined, isoDate("from").optional()),
    to: z.preprocess(blankToUndefined, isoDate("to").optional()),
    phoneNumberId: z.preprocess(blankToUndefined, z.string().max(200).optional()),
    direction: z.preprocess(blankToUndefined, z.enum(["inbound", "outbound"], "direction must be inbound or outbound").optional()),
    status: z.preprocess(blankToUndefined, z.enum(historyStatuses, `status must be one of ${historyStatuses.join(", ")}`).optional()),
    spam: z.preprocess(
      blankToUndefined,
      z
        .enum(["true", "false"], "spam must be true or false")
        .transform((v) => v === "true")
        .optional(),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "to must not be before from", path: ["to"] });

export type HistoryQuery = z.infer<typeof historyQuery>;
