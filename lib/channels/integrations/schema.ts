import { z } from "zod";

export const webhookConnectInput = z.object({
  url: z
    .string("Enter the URL Switchboard should send events to")
    .trim()
    .min(1, "Enter the URL Switchboard should send events to")
    .max(2048, "The URL is too long (2,048 characters at most)")
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, "Enter a full URL starting with https:// or http://"),
});

export const slackConnectInput = z.object({
  webhookUrl: z
    .string("Paste the Slack incoming-webhook URL")
    .trim()
    .min(1, "Paste the Slack incoming-webhook URL")
    .max(2048, "The URL is too long (2,048 characters at most)")
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" && url.hostname === "hooks.slack.com" && url.pathname.length > 1 && !url.username && !url.port;
      } catch {
        return false;
      }
    }, "Use a Slack incoming-webhook URL starting with https://hooks.slack.com/"),
});

export type WebhookConnectInput = z.infer<typeof webhookConnectInput>;
export type SlackConnectInput = z.infer<typeof slackConnectInput>;

const secret = (label: string) => z.string(`${label} must be text`).trim().min(8, `${label} looks too short`).max(4096, `${label} is too long`);

/**
 * Google Calendar: the calendar's ID ("primary" or an address such as team@example.com) and either an
 * OAuth access token (about an hour of use: for trying it) or a refresh token with the OAuth client it
 * was issued to (lasting). `resourceId`: the staff member or room whose calendar it is (default: the
 * whole business).
 */
export const googleCalendarConnectInput = z
  .object({
    calendarId: z.string("Enter the calendar ID").trim().min(1, "Enter the calendar ID").max(254, "The calendar ID is too long"),
    accessToken: secret("Access token").optional(),
    refreshToken: secret("Refresh token").optional(),
    clientId: z.string().trim().min(1, "Enter the OAuth client ID").max(512).optional(),
    clientSecret: z.string().trim().min(1, "Enter the OAuth client secret").max(512).optional(),
    resourceId: z.string().trim().min(1).nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.refreshToken) {
      if (!v.clientId) ctx.addIssue({ code: "custom", path: ["clientId"], message: "Enter the OAuth client ID the refresh token belongs to" });
      if (!v.clientSecret) ctx.addIssue({ code: "custom", path: ["clientSecret"], message: "Enter the OAuth client secret" });
    } else if (!v.accessToken) {
      ctx.addIssue({ code: "custom", path: ["accessToken"], message: "Enter an access token, or a refresh token with its client ID and secret" });
    }
  });
export type GoogleCalendarConnectInput = z.infer<typeof googleCalendarConnectInput>;
