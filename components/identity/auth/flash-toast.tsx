"use client";

import * as React from "react";
import { toast } from "sonner";
import { SIGN_IN_NOTICE_COOKIE, type SignInNotice } from "@/lib/identity/auth/session-hint";

/**
 * A toast that survives a full page load. Sign-in and sign-up end with a full-page redirect
 * (spec §2), which would wipe a toast shown just before it; the next page shows it instead.
 */
const STORAGE_KEY = "switchboard.flashToast";

interface FlashToast {
  type: "success" | "error";
  title: string;
  description?: string;
}

export function showToastAcrossNavigation(flash: FlashToast): void {
  toast[flash.type](flash.title, { description: flash.description });
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(flash));
  } catch {
    // Storage unavailable: the toast shown above is all the user gets.
  }
}

function takeFlashToast(): FlashToast | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    window.sessionStorage.removeItem(STORAGE_KEY);
    const parsed = JSON.parse(raw) as Partial<FlashToast>;
    if ((parsed.type === "success" || parsed.type === "error") && typeof parsed.title === "string") {
      return { type: parsed.type, title: parsed.title, description: parsed.description };
    }
  } catch {
    // Unreadable entry: drop it.
  }
  return null;
}

const NOTICES: Record<SignInNotice, FlashToast> = {
  "signed-out": { type: "error", title: "Unauthorized", description: "You are logged out. Logging in again..." },
  admin: { type: "error", title: "Access Denied", description: "Admin access required" },
};

/** The proxy's one-time notice (proxy.ts) after it sent a signed-out visitor to sign in; cleared once read. */
function takeSignInNotice(): FlashToast | null {
  const entry = document.cookie.split(/;\s*/).find((cookie) => cookie.startsWith(`${SIGN_IN_NOTICE_COOKIE}=`));
  if (!entry) return null;
  document.cookie = `${SIGN_IN_NOTICE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  const notice = entry.slice(SIGN_IN_NOTICE_COOKIE.length + 1);
  return notice === "signed-out" || notice === "admin" ? NOTICES[notice] : null;
}

/** Render after <Toaster/> so it is subscribed when the queued toast is shown. */
export function FlashToastListener() {
  React.useEffect(() => {
    const flash = takeFlashToast() ?? takeSignInNotice();
    if (flash) toast[flash.type](flash.title, { description: flash.description });
  }, []);
  return null;
}
