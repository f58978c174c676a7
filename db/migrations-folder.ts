import path from "node:path";

// Resolved from the working directory: `next start`, the scripts and jest all run at the repo root,
// and the bundler must not try to inline the SQL files.
export const migrationsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");
