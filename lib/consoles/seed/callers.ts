import type { Random } from "./random";
import { callerNames } from "./scenarios";

export type DemoCaller = { number: string; name: string | null };

/** A demo caller's number: +1 503 555 0200–0999 (outside the simulated carrier's 555-01XX inventory). */
function callerNumber(random: Random): string {
  return `+1503555${String(random.int(200, 999)).padStart(4, "0")}`;
}

/**
 * The demo's callers: one name per phone number and one number per name. Each regular caller
 * (callerNames) keeps one number for every call; the rest are unknown numbers that never carry a
 * name — a number that calls again is the same person, with the same name or none. Spam comes
 * from a range of its own (+1 888 555 …), so it never shares a number with a person.
 */
export function createCallerBook(random: Random, regularShare = 0.6) {
  const byNumber = new Map<string, DemoCaller>();
  const regulars: DemoCaller[] = [];
  for (const name of callerNames) {
    let number = callerNumber(random);
    while (byNumber.has(number)) number = callerNumber(random);
    const caller = { number, name };
    byNumber.set(number, caller);
    regulars.push(caller);
  }
  return {
    regulars: regulars as readonly DemoCaller[],
    /** A regular caller, or an unknown number (never one of the regulars'). */
    pick(): DemoCaller {
      if (random.chance(regularShare)) return random.pick(regulars);
      let number = callerNumber(random);
      while (byNumber.get(number)?.name) number = callerNumber(random);
      const caller = byNumber.get(number) ?? { number, name: null };
      byNumber.set(number, caller);
      return caller;
    },
    spamNumber(): string {
      return `+1888555${String(random.int(1000, 9999))}`;
    },
  };
}
