import { z } from "zod";
import { blankToUndefined, pageQuery } from "@/lib/platform/http/pagination";
import { historyStatuses, historyTypes } from "./constants";

export { callStatuses, historyStatuses, historyTypes, messageStatuses, type HistoryType } from "./constants";

const isoDate = (label: string) =>
  z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${label} must be a date and time in ISO 8601, e.g. 2026-11-22T00:00:00Z`)
    .transform((v) => new Date(v));

export const historyQuery = z
  .object({
    ...pageQuery(25, 100).shape,
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
