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

/** Entries that only record a connection take no settings: whatever is sent is ignored. */
export const flagConnectInput = z.object({}).strip();

export type WebhookConnectInput = z.infer<typeof webhookConnectInput>;
export type SlackConnectInput = z.infer<typeof slackConnectInput>;
