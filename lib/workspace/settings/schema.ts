import { z } from "zod";
import { keyFormats, type KeyFormat } from "./key-format";

/** Settings → Profile. Same messages as sign-up (core spec §5). */
export const profileInput = z.object({
  firstName: z.string({ error: "First name is required" }).trim().min(1, "First name is required").max(80, "First name must be at most 80 characters"),
  lastName: z.string({ error: "Last name is required" }).trim().min(1, "Last name is required").max(80, "Last name must be at most 80 characters"),
  email: z
    .string({ error: "Please enter a valid email" })
    .trim()
    .toLowerCase()
    .max(254, "Please enter a valid email")
    .pipe(z.email("Please enter a valid email")),
});
export type ProfileInput = z.output<typeof profileInput>;

export const NEW_PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Settings → Security. confirmPassword is checked by the server too. */
export const passwordInput = z
  .object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required").max(PASSWORD_MAX, "Current password is incorrect"),
    newPassword: z
      .string({ error: `Password must be at least ${NEW_PASSWORD_MIN} characters` })
      .min(NEW_PASSWORD_MIN, `Password must be at least ${NEW_PASSWORD_MIN} characters`)
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type PasswordInput = z.output<typeof passwordInput>;

/**
 * Settings → Notifications, with the spec's defaults (core §2) for its three switches, and the alerts
 * an owner should not miss (issue 30): messages, voicemails, missed calls and urgent tasks, each on
 * by default, in the app and by e-mail (SMTP when set, the Outbox otherwise).
 */
export const notificationDefaults = {
  emailNotifications: false,
  callAlerts: true,
  systemUpdates: true,
  messageAlerts: true,
  voicemailAlerts: true,
  missedCallAlerts: true,
  urgentTaskAlerts: true,
  alertEmails: true,
} as const;
export const notificationSwitches = Object.keys(notificationDefaults) as (keyof typeof notificationDefaults)[];
export type NotificationPreferences = { [K in keyof typeof notificationDefaults]: boolean };

/** PUT /api/settings/notifications: any subset of the switches. */
export const notificationsInput = z
  .object(Object.fromEntries(notificationSwitches.map((key) => [key, z.boolean({ error: `${key} must be true or false` })])) as {
    [K in keyof typeof notificationDefaults]: z.ZodBoolean;
  })
  .partial()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: `Send at least one of ${notificationSwitches.join(", ")}`,
    path: ["body"],
  });
export type NotificationsInput = z.output<typeof notificationsInput>;

/** The providers whose keys Settings → API Keys manages (organization-wide). */
export const apiKeyProviders = ["anthropic", "elevenlabs", "deepgram", "twilio"] as const;
export type ApiKeyProvider = (typeof apiKeyProviders)[number];

export function isApiKeyProvider(value: unknown): value is ApiKeyProvider {
  return typeof value === "string" && (apiKeyProviders as readonly string[]).includes(value);
}

const apiKey = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, `${label} is required`)
    .min(8, `${label} looks too short`)
    .max(500, `${label} must be at most 500 characters`)
    .regex(/^\S+$/, `${label} must not contain spaces`);

export const TWILIO_ACCOUNT_SID_MESSAGE = keyFormats.twilioAccountSid.message;

/** The general checks, then the provider's own format (lib/workspace/settings/key-format.ts). */
const providerKey = (label: string, format: KeyFormat) => apiKey(label).regex(format.pattern, format.message);

/**
 * PUT /api/settings/api-keys: the keys to save or replace; keys left out are kept as they are.
 * The form sends only the fields the user filled in.
 */
export const apiKeysInput = z
  .object({
    anthropic: providerKey("Anthropic API key", keyFormats.anthropic).optional(),
    elevenlabs: providerKey("ElevenLabs API key", keyFormats.elevenlabs).optional(),
    deepgram: providerKey("Deepgram API key", keyFormats.deepgram).optional(),
    twilio: z
      .object(
        {
          accountSid: z
            .string({ error: TWILIO_ACCOUNT_SID_MESSAGE })
            .trim()
            .min(1, "Account SID is required")
            .regex(keyFormats.twilioAccountSid.pattern, TWILIO_ACCOUNT_SID_MESSAGE),
          authToken: providerKey("Auth token", keyFormats.twilioAuthToken),
        },
        { error: "Twilio needs an account SID and an auth token" },
      )
      .optional(),
  })
  .refine((v) => apiKeyProviders.some((p) => v[p] !== undefined), { message: "Enter at least one API key to save", path: ["body"] });
export type ApiKeysInput = z.output<typeof apiKeysInput>;

/** Labels for the API Keys screen and docs. */
export const apiKeyProviderInfo: Record<ApiKeyProvider, { kind: string; vendor: string }> = {
  anthropic: { kind: "Language model", vendor: "Anthropic" },
  elevenlabs: { kind: "Speech", vendor: "ElevenLabs" },
  deepgram: { kind: "Transcription", vendor: "Deepgram" },
  twilio: { kind: "Telephony", vendor: "Twilio" },
};
