import { z } from "zod";

/** The most days a setting may hold (ten years): anything longer is "forever" (null). */
export const MAX_RETENTION_DAYS = 3650;

/**
 * The speech cache (synthesized lines, replies, voice tests) is kept this many days unless the
 * organization says otherwise: a cached greeting dropped by it is synthesized again on its next use.
 */
export const AUDIO_CACHE_DEFAULT_DAYS = 30;

const days = (what: string) =>
  z
    .number({ error: `${what} must be a whole number of days, or null to keep forever` })
    .int(`${what} must be a whole number of days, or null to keep forever`)
    .min(0, `${what} must be 0 or more`)
    .max(MAX_RETENTION_DAYS, `${what} must be at most ${MAX_RETENTION_DAYS} days (null keeps forever)`)
    .nullable()
    .optional();

/**
 * PUT /api/settings/retention (docs/api.md#retention). Days, integers ≥ 0; 0 keeps nothing once the
 * call's summary is written (texts: nothing past the next run); null or absent keeps forever (the
 * speech cache: absent means AUDIO_CACHE_DEFAULT_DAYS). The body replaces the whole setting.
 */
export const retentionInput = z.object({
  recordingsDays: days("recordingsDays"),
  transcriptsDays: days("transcriptsDays"),
  textsDays: days("textsDays"),
  audioCacheDays: days("audioCacheDays"),
});
export type RetentionInput = z.infer<typeof retentionInput>;

export type RetentionSettings = {
  recordingsDays: number | null;
  transcriptsDays: number | null;
  textsDays: number | null;
  audioCacheDays: number | null;
};
