// npm start — builds when there is no current production build, then serves it with `next start`.
// The server applies migrations and seeds an empty database itself before it serves (instrumentation.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";

buildIfNeeded();
const args = [path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "start", ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { stdio: "inherit", env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
