import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { Providers } from "@/components/providers";
import { SESSION_COOKIE_NAMES, type SessionHint } from "@/lib/auth/session-hint";
import { SiteHeader } from "@/components/layout/site-header";
import { SiteFooter } from "@/components/layout/site-footer";
import { LayoutIntegrityCheck } from "@/components/layout/layout-integrity-check";
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
 * spinner stays for a cookie whose session is still unknown. (Per-request rendering is also what the
 * CSP nonce needs: proxy.ts.)
 */
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const jar = await cookies();
  const sessionHint: SessionHint = SESSION_COOKIE_NAMES.some((name) => jar.has(name)) ? "unknown" : "signed-out";
  return (
    <html lang="en" className="dark">
      <body className="flex min-h-dvh flex-col">
        <Providers sessionHint={sessionHint}>
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
