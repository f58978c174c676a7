import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema and committed; the app applies them itself at start
// (db/migrate.ts), so drizzle-kit needs no database connection here.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
