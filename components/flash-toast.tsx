"use client";

import * as React from "react";
import { toast } from "sonner";

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

/** Render after <Toaster/> so it is subscribed when the queued toast is shown. */
export function FlashToastListener() {
  React.useEffect(() => {
    const flash = takeFlashToast();
    if (flash) toast[flash.type](flash.title, { description: flash.description });
  }, []);
  return null;
}
