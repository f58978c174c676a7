import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { Providers } from "@/components/shell/providers";
import { SESSION_COOKIE_NAMES, type SessionHint } from "@/lib/identity/auth/session-hint";
import { getCurrentUser } from "@/lib/identity/auth/current-user";
import { publicUser } from "@/lib/identity/auth/session";
import { SiteHeader } from "@/components/shell/layout/site-header";
import { SiteFooter } from "@/components/shell/layout/site-footer";
import { LayoutIntegrityCheck } from "@/components/shell/layout/layout-integrity-check";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard: the AI phone desk for businesses", template: "%s · Switchboard" },
  description:
    "Switchboard answers and handles your business calls and messages with AI voice assistants, phone numbers, transcripts, summaries and daily recaps.",
};

export const viewport: Viewport = {
  themeColor: "#0f1117",
  colorScheme: "dark",
};

/**
 * Rendered per request: a visitor without a session cookie is known to be signed out, so the server
 * renders the signed-out page (the landing page, /signup, /auth…) instead of the loading spinner; the
 * spinner stays for a cookie whose session the server could not confirm. A cookie whose session the
 * server finds is resolved here (once per request, lib/identity/auth/current-user.ts) and handed to the
 * client's auth state, so signed-in pages render on the server with the user and their data, no
 * spinner (issue 30 point 5). (Per-request rendering is also what the CSP nonce needs: proxy.ts.)
 */
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const jar = await cookies();
  const hasSessionCookie = SESSION_COOKIE_NAMES.some((name) => jar.has(name));
  const sessionHint: SessionHint = hasSessionCookie ? "unknown" : "signed-out";
  // A database hiccup here only costs the server-side render: the client asks /api/auth/me as before.
  const user = hasSessionCookie ? await getCurrentUser().catch(() => null) : null;
  return (
    <html lang="en" className="dark">
      <body className="flex min-h-dvh flex-col">
        <Providers sessionHint={sessionHint} initialUser={user ? publicUser(user) : null}>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
          >
            Skip to content
          </a>
          <SiteHeader />
          <main id="main" data-layout="main" className="flex flex-1 flex-col">
            {children}
          </main>
          <SiteFooter />
          <LayoutIntegrityCheck />
        </Providers>
      </body>
    </html>
  );
}
