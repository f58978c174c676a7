// @ts-check
/**
 * Lowers the scheduling priority of the calling thread (Linux): a worker doing long CPU-bound work
 * calls it once, so the server's event loop, at normal priority, gets a core first whenever both
 * want one, and answers other requests while the workers keep the remaining CPU busy.
 *
 * Linux keeps a nice value per thread: /proc/thread-self names the calling thread's id, and
 * setpriority(PRIO_PROCESS, tid) (Node's os.setPriority) changes that thread only. Elsewhere, or
 * if refused, nothing changes.
 */
import fs from "node:fs";
import os from "node:os";

/**
 * @param {number} nice  0 (normal) … 19 (lowest)
 * @returns {number | null} the thread's nice value afterwards, or null where it cannot be set
 */
export function lowerThreadPriority(nice) {
  if (process.platform !== "linux") return null;
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    os.setPriority(tid, Math.max(os.getPriority(tid), nice));
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
