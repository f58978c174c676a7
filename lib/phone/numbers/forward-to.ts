import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { z } from "zod";

/**
 * Forward-to numbers as people write them: "512-555-1234", "(512) 555 1234", "+44 20 7946 0958",
 * "1.512.555.1234". Stored in E.164 ("+15125551234"); shown back formatted. Numbers without a
 * country code are read as US/Canada numbers (the plans' phone numbers are North American).
 */
export const DEFAULT_PHONE_REGION: CountryCode = "US";
export const FORWARD_TO_MESSAGE = "Enter a phone number with its area code, e.g. (512) 555-1234, or +44 20 7946 0958 abroad";

/** E.164 for a number a person typed, or null when it is not a possible phone number. */
export function toE164(input: string, region: CountryCode = DEFAULT_PHONE_REGION): string | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 40) return null;
  // Letters (vanity numbers aside) are almost always a typo here; refuse rather than guess.
  if (/[a-z]/i.test(text.replace(/\b(ext|x)\.?\s*\d+$/i, ""))) return null;
  const parsed = parsePhoneNumberFromString(text, region);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/** "+15125551234" → "+1 512 555 1234"; national style for US numbers: "(512) 555-1234". */
export function formatForDisplay(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === DEFAULT_PHONE_REGION ? parsed.formatNational() : parsed.formatInternational();
}

/** The zod field for forwardTo: accepts the usual ways of writing a number, yields E.164. */
export const forwardToNumber = z
  .string()
  .trim()
  .max(40, FORWARD_TO_MESSAGE)
  .transform((value, ctx) => {
    const e164 = toE164(value);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: FORWARD_TO_MESSAGE });
      return z.NEVER;
    }
    return e164;
  });
