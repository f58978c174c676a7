import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that it loads at run time; keep it out of the server bundle.
  // The offline speech engines (flite, PocketSphinx through koffi) are never imported by bundled
  // code: the speech worker (lib/platform/providers/speech-worker.mjs) loads them from node_modules itself.
  // pdf.js loads its worker module from its own folder at run time (lib/knowledge/business-profile/import/pdf.ts).
  // ws serves the ConversationRelay gateway (lib/phone/telephony/relay).
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "pdfjs-dist", "ws"],
  poweredByHeader: false,
  typedRoutes: false,
  // The spec's second names of six screens: one page each, the other name redirects to it (with its
  // query). Temporary (307), so a browser does not remember them if a name ever gets its own page.
  async redirects() {
    return aliasPages.map(([alias, page]) => ({ source: alias, destination: page, permanent: false }));
  },
};

const aliasPages = [
  ["/admin-dashboard", "/admin"],
  ["/analytics-dashboard", "/analytics"],
  ["/billing-management", "/billing"],
  ["/crm-voice-management", "/crm-voice"],
  ["/mcp-management", "/mcp"],
  ["/a2a-management", "/a2a"],
] as const;

export default nextConfig;
