/**
 * The one reading of a spoken day and time for the whole product: the booking dialogue, the
 * language model's date tool and the engine all call `whenSaid`, which is caller understanding's
 * `resolveWhen` (chrono-node, the business's time zone, the call's clock), so "the Tuesday after
 * next" means one thing everywhere. A day that does not exist ("February 30th") or has passed comes
 * back `invalid`: the caller is asked again, never guessed for.
 */
import { formatWhen, resolveWhen } from "./understanding";
import type { Language, SpokenWhen } from "./understanding/types";

export type WhenContext = {
  /** The business's local date ("YYYY-MM-DD") at the call's clock. */
  today: string;
  /** The call's clock and the business's zone; without them, noon of `today` in UTC stands for both. */
  now?: Date;
  timeZone?: string;
  language?: Language;
};

export function whenSaid(text: string, ctx: WhenContext): SpokenWhen | undefined {
  const clock = ctx.now && ctx.timeZone ? { now: ctx.now, timeZone: ctx.timeZone } : { now: new Date(`${ctx.today}T12:00:00Z`), timeZone: "UTC" };
  return resolveWhen(text, { ...clock, ...(ctx.language ? { language: ctx.language } : {}) });
}

export { formatWhen };
