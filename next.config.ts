import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that it loads at run time; keep it out of the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "mespeak", "ws"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
