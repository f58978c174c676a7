import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that it loads at run time; keep it out of the server bundle.
  // The offline speech engines (flite, PocketSphinx through koffi) are never imported by bundled
  // code: the speech worker (lib/providers/speech-worker.mjs) loads them from node_modules itself.
  // pdf.js loads its worker module from its own folder at run time (lib/business-profile/import/pdf.ts).
  // ws serves the ConversationRelay gateway (lib/telephony/relay).
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "pdfjs-dist", "ws"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
