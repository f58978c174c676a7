"use client";

import * as React from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Toaster } from "sonner";
import { createQueryClient } from "@/lib/platform/query-client";
import { AuthProvider } from "@/lib/identity/auth/use-auth";
import type { SessionHint } from "@/lib/identity/auth/session-hint";
import type { AuthUser } from "@/lib/identity/auth/use-auth";
import { TooltipProvider } from "@/components/ui/tooltip";
import { FlashToastListener } from "@/components/identity/auth/flash-toast";

/** The header is 4 rem high (h-16) and sticky: toasts start just below it. */
const TOAST_TOP = "4.75rem";

/** Client-side context for every page: data fetching, auth state, tooltips and toasts. */
export function Providers({
  children,
  sessionHint,
  initialUser = null,
}: {
  children: React.ReactNode;
  sessionHint: SessionHint;
  /** The signed-in user the server resolved for this request (app/layout.tsx), if any. */
  initialUser?: AuthUser | null;
}) {
  // One client per browser tab; useState keeps it stable across re-renders.
  const [queryClient] = React.useState(createQueryClient);

  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider sessionHint={sessionHint} initialUser={initialUser}>
        <TooltipProvider>
          {children}
          {/*
            Spec §9: one toast at a time, 5 s, swipe right to dismiss, F8 focuses the viewport. At the top
            centre a toast never hides a dialog's footer buttons; it sits below the sticky header (4 rem
            high) so it never covers the navigation (issue 30).
          */}
          <Toaster
            theme="dark"
            richColors
            closeButton
            position="top-center"
            visibleToasts={1}
            duration={5000}
            hotkey={["F8"]}
            swipeDirections={["right"]}
            offset={{ top: TOAST_TOP }}
            mobileOffset={{ top: TOAST_TOP, left: 16, right: 16 }}
          />
          <FlashToastListener />
        </TooltipProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
