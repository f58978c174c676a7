import { z } from "zod";
import { routingActions, routingConditions, routingIntents } from "./constants";

// The phone-number schema embeds the routing schema, so the E.164 rule is restated here (same words,
// plain ones: owners read them).
const e164 = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{7,14}$/, "Enter the number with + and the country code, e.g. +14155550123");

/** One routing rule: when (condition) → what (action). Shared by the route, the form and the tests. */
export const routingRule = z
  .object({
    condition: z.enum(routingConditions, `condition must be one of ${routingConditions.join(", ")}`),
    action: z.enum(routingActions, `action must be one of ${routingActions.join(", ")}`),
    to: e164.nullable().optional(),
    numbers: z.array(e164).max(200, "At most 200 VIP numbers per rule").optional(),
    intent: z.enum(routingIntents, `intent must be one of ${routingIntents.join(", ")}`).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.action === "forward" && !rule.to) ctx.addIssue({ code: "custom", path: ["to"], message: "A forward rule needs the number to ring, with + and the country code" });
    if ((rule.condition === "vip" || rule.condition === "blocked") && !rule.numbers?.length) ctx.addIssue({ code: "custom", path: ["numbers"], message: `A ${rule.condition === "vip" ? "VIP" : "blocked"} rule needs at least one caller number` });
    if (rule.condition === "intent" && !rule.intent) ctx.addIssue({ code: "custom", path: ["intent"], message: "An intent rule needs an intent: sales, support or billing" });
    if (rule.condition === "intent" && rule.action === "reject") ctx.addIssue({ code: "custom", path: ["action"], message: "An intent rule cannot reject a caller who is already talking to the assistant" });
  });

export const numberRouting = z.object({
  mode: z.enum(["assistant_first", "ring_first"], "mode must be assistant_first or ring_first").default("assistant_first"),
  ringTimeoutSeconds: z.coerce
    .number()
    .int("ringTimeoutSeconds must be a whole number")
    .min(5, "ringTimeoutSeconds must be at least 5")
    .max(60, "ringTimeoutSeconds must be at most 60")
    .default(20),
  rules: z.array(routingRule).max(50, "At most 50 routing rules").default([]),
});
export type NumberRoutingInput = z.input<typeof numberRouting>;

/** POST /api/blocklist. */
export const callerListInput = z.object({
  phoneNumber: e164,
  list: z.enum(["block", "allow"], "list must be block or allow").default("block"),
  note: z.string().trim().max(200, "note must be at most 200 characters").default(""),
});
export type CallerListInput = z.infer<typeof callerListInput>;

/** PUT /api/call-policy: any subset. */
export const callPolicyInput = z
  .object({
    spamThreshold: z.number("spamThreshold must be a number").int("spamThreshold must be a whole number").min(1, "spamThreshold must be 1–100").max(100, "spamThreshold must be 1–100").optional(),
    spamAction: z.enum(["block", "voicemail"], "spamAction must be block or voicemail").optional(),
    shareSpamReports: z.boolean("shareSpamReports must be true or false").optional(),
    monthlyCapCredits: z.number("monthlyCapCredits must be a number").int("monthlyCapCredits must be a whole number").min(1, "monthlyCapCredits must be at least 1").max(10_000_000, "monthlyCapCredits is too large").nullable().optional(),
    atCap: z.enum(["voicemail_only", "keep_answering"], "atCap must be voicemail_only or keep_answering").optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type CallPolicyInput = z.infer<typeof callPolicyInput>;
