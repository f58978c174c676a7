import { RETURN_TO_PARAM, safeReturnPath } from "@/lib/identity/auth/return-to";

/** The same-site page this sign-in was asked for (`/auth?next=/call-history`), or null. */
export function returnPathFromLocation(): string | null {
  if (typeof window === "undefined") return null;
  return safeReturnPath(new URLSearchParams(window.location.search).get(RETURN_TO_PARAM));
}
