import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Tests read JSON bodies of many shapes; typing each one would test the types, not the app.
    files: ["tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    ignores: [".next/**", "node_modules/**", ".data/**", ".data-*/**", "playwright-report/**", "test-results/**", "next-env.d.ts", "db/migrations/**"],
  },
];

export default config;
