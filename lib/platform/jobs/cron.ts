import "server-only";
import crypto from "node:crypto";
import { env } from "@/lib/platform/env";
import { HttpError, unauthorized } from "@/lib/platform/http/errors";
import { runDueJobs } from "./runner";
import type { JobDefinition } from "./types";

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** The cron route's work: check the bearer secret, then run what is due (of `definitions`) within the host's time limit. */
export async function runScheduledWork(authorization: string | null, definitions: JobDefinition<unknown>[]) {
  if (!env.CRON_SECRET) throw new HttpError(503, "The cron route is off: set CRON_SECRET on the server to use it.");
  const token = authorization?.match(/^Bearer (.+)$/)?.[1] ?? "";
  if (!sameSecret(token, env.CRON_SECRET)) throw unauthorized();
  return runDueJobs({ definitions, budgetMs: 20_000 });
}
