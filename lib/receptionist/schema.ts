import { z } from "zod";

const clock = z.string("localTime must be HH:MM").regex(/^([01]\d|2[0-3]):[0-5]\d$/, "localTime must be HH:MM (24-hour), e.g. 18:00");

/** PUT /api/recaps/settings {enabled?, localTime?} */
export const recapSettingsInput = z
  .object({ enabled: z.boolean("enabled must be true or false").optional(), localTime: clock.optional() })
  .refine((v) => v.enabled !== undefined || v.localTime !== undefined, { message: "Send enabled or localTime", path: ["localTime"] });
export type RecapSettingsInput = z.infer<typeof recapSettingsInput>;

/** PUT /api/phone-numbers/{id}/text-back {enabled?, template?} */
export const textBackInput = z
  .object({
    enabled: z.boolean("enabled must be true or false").optional(),
    template: z.string("template must be text").trim().min(1, "template must not be empty").max(320, "template must be at most 320 characters").optional(),
  })
  .refine((v) => v.enabled !== undefined || v.template !== undefined, { message: "Send enabled or template", path: ["template"] });
export type TextBackInput = z.infer<typeof textBackInput>;


/** POST /api/emails/inbound: an e-mail as an inbound-mail service hands it over (parsed to JSON). */
export const inboundEmailInput = z.object({
  from: z.string("from is required").trim().min(3, "from is required").max(320),
  /** The address it was sent to (one, or a comma-separated list). */
  to: z.string().trim().max(2000).optional(),
  subject: z.string().max(1000).optional(),
  /** The plain-text body, quoted original included. */
  text: z.string("text is required").max(100_000),
});
export type InboundEmailInput = z.infer<typeof inboundEmailInput>;

/** POST /api/notifications/read: the notifications to mark read; none named → all of them. */
export const markNotificationsReadInput = z.object({
  ids: z.array(z.string({ error: "ids must be a list of notification ids" }).max(100), { error: "ids must be a list of notification ids" }).max(200, "At most 200 ids at once").optional(),
});
