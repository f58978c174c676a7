import "server-only";
import { json } from "@/lib/identity/http/route";
import { SlotTakenError } from "./service";

/** A 409 for a time that is no longer free carries the nearest free slots: `{message, alternatives}`. */
export async function answeringSlotConflicts<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SlotTakenError) return json({ message: error.message, alternatives: error.alternatives }, { status: 409 });
    throw error;
  }
}
