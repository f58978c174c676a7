import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/platform/env";

let cached: string | undefined;

/**
 * The app secret signs session tokens and derives the key that encrypts saved API keys.
 * Production sets BETTER_AUTH_SECRET (or APP_SECRET); an embedded install generates one once
 * into .data/secret so that sessions survive restarts.
 */
export function appSecret(): string {
  if (cached) return cached;
  const configured = env.BETTER_AUTH_SECRET ?? env.APP_SECRET;
  if (configured) return (cached = configured);
  // Checked here, when a secret is first needed, not at import: `next build` loads route modules.
  if (env.NODE_ENV === "production" && env.DATABASE_URL) {
    throw new Error("BETTER_AUTH_SECRET (or APP_SECRET) is required in production with DATABASE_URL.");
  }
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
    if (cached.length >= 32) return cached;
  } catch {
    // first start: generate below
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  cached = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, cached, { mode: 0o600 });
  return cached;
}
