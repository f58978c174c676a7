#!/usr/bin/env node
/**
 * Lists the imports in lib/ that go against the order of the contexts (scripts/contexts.cjs), file by
 * file, in the shape of KNOWN_CROSSINGS (tests excluded, type imports included, as the lint walls see
 * them). `--check` exits 1 when the list differs from KNOWN_CROSSINGS: a new crossing, or an entry
 * that no longer crosses.
 *
 *   node scripts/context-crossings.mjs [--check]
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { KNOWN_CROSSINGS, above, contextOf } = createRequire(import.meta.url)("./contexts.cjs");

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path.relative(root, full).split(path.sep).join("/");
  }
}

const found = {};
for (const file of walk(path.join(root, "lib"))) {
  const context = contextOf(file);
  if (!context) continue;
  const banned = above(context);
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const reached = new Set();
  for (const [, spec] of text.matchAll(/(?:from|import\(|import)\s*["']([^"']+)["']/g)) {
    const target = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : null;
    const into = target && contextOf(`${target}/`);
    if (into && banned.includes(into)) reached.add(into);
  }
  if (reached.size) found[file] = [...reached].sort();
}

const lines = Object.entries(found).map(([file, names]) => `  ${JSON.stringify(file)}: [${names.map((n) => JSON.stringify(n)).join(", ")}],`);
if (process.argv.includes("--check")) {
  const canonical = (table) => JSON.stringify(Object.entries(table).map(([f, n]) => [f, [...n].sort()]).sort(([a], [b]) => (a < b ? -1 : 1)));
  const same = canonical(found) === canonical(KNOWN_CROSSINGS);
  if (!same) {
    console.error("KNOWN_CROSSINGS (scripts/contexts.cjs) differs from the code; today's crossings:");
    console.error(lines.join("\n"));
    process.exit(1);
  }
  console.log(`context crossings: ${lines.length} files, as listed`);
} else {
  console.log(lines.join("\n"));
}
