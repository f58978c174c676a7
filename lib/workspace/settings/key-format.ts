/**
 * What each provider's keys look like, checked before a key is saved (form and route alike), so a
 * key pasted into the wrong field or cut short is caught at once instead of failing on a live call.
 * Deliberately loose where providers have changed formats before.
 */
export type KeyFormat = { pattern: RegExp; message: string };

export const keyFormats = {
  anthropic: { pattern: /^sk-ant-[A-Za-z0-9_-]{8,}$/, message: "Anthropic API keys start with sk-ant-" },
  elevenlabs: {
    pattern: /^(sk_)?[0-9a-f]{32,64}$/i,
    message: "ElevenLabs API keys are sk_ followed by 48 letters and digits (older keys: 32)",
  },
  deepgram: { pattern: /^[0-9a-f]{40}$/i, message: "Deepgram API keys are 40 letters (a–f) and digits" },
  twilioAccountSid: { pattern: /^AC[0-9a-f]{32}$/i, message: "Account SID must start with AC and be 34 characters" },
  twilioAuthToken: { pattern: /^[0-9a-f]{32}$/i, message: "Twilio auth tokens are 32 letters (a–f) and digits" },
} satisfies Record<string, KeyFormat>;
