import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that it loads at run time; keep it out of the server bundle.
  // pdf.js loads its worker module from its own folder at run time (lib/business-profile/import/pdf.ts).
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "mespeak", "pdfjs-dist"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
