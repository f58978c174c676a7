import "server-only";
import crypto from "node:crypto";
import { appSecret } from "@/lib/platform/crypto/app-secret";

/**
 * AES-256-GCM for secrets at rest (provider keys, webhook signing secrets). The key is derived from
 * the app secret with HKDF-SHA256, so rotating BETTER_AUTH_SECRET makes old ciphertexts unreadable
 * (users re-enter their keys). Format: v1.<iv>.<tag>.<ciphertext>, each base64url.
 */
const VERSION = "v1";
let cachedKey: Buffer | undefined;

function key(): Buffer {
  cachedKey ??= Buffer.from(crypto.hkdfSync("sha256", appSecret(), "switchboard", "secret-box:v1", 32));
  return cachedKey;
}

export function encryptSecret(plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognised secret format");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** "…1234": what the screen may show of a secret. */
export function secretHint(value: string): string {
  return value.length <= 4 ? "…" : `…${value.slice(-4)}`;
}
